import { getCondition } from '@kcm-bus/k8s/conditions.ts';
import { getZoneKey, taintExists, type TaintRef } from '@kcm-bus/k8s/node-taints.ts';
import type { Node, NodeCondition } from '@kcm-bus/k8s/node-v1.ts';
import type { Lister } from '@kcm-bus/runtime/controller/index.ts';
import type { NodeCollectorMetrics } from './metrics.ts';
import { inFlight, type NodeLifecycleState, tainterOf } from './node-lifecycle-state.ts';
import type { NodeWrites } from './node-writes.ts';
import { NODE_EVICTION_PERIOD_MS } from './rate-limited-queue.ts';

/** UNREACHABLE_TAINT_TEMPLATE is upstream's UnreachableTaintTemplate (node.kubernetes.io/unreachable:NoExecute). */
export const UNREACHABLE_TAINT_TEMPLATE: TaintRef = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };

/** NOT_READY_TAINT_TEMPLATE is upstream's NotReadyTaintTemplate (node.kubernetes.io/not-ready:NoExecute). */
export const NOT_READY_TAINT_TEMPLATE: TaintRef = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' };

/** TaintingPass is what the NoExecute tainting decisions of one sync work on. */
export type TaintingPass = {
  readonly state: NodeLifecycleState;
  readonly writes: NodeWrites;
  readonly nowMs: number;
};

/** NO_EXECUTE_RETRY_MS is doNoExecuteTaintingPass's retry after a node without a Ready condition (50 ms). */
const NO_EXECUTE_RETRY_MS = 50;

/**
 * markNodeAsReachable mirrors Controller.markNodeAsReachable: both NoExecute taints off the node (only when it
 * carries one) and the node out of its zone's queue; when the taints cannot be written in this sync (the node's
 * status write is in flight) nothing changes, as when upstream's removal fails.
 */
export function markNodeAsReachable(pass: TaintingPass, node: Node): void {
  const carries = [UNREACHABLE_TAINT_TEMPLATE, NOT_READY_TAINT_TEMPLATE].some((t) =>
    taintExists(pass.writes.taintsOf(node), t),
  );
  if (carries && !pass.writes.swapTaints(node, [], [UNREACHABLE_TAINT_TEMPLATE, NOT_READY_TAINT_TEMPLATE])) return;
  tainterOf(pass.state, node).remove(node.metadata.name);
}

/**
 * markNodeForTainting mirrors Controller.markNodeForTainting: the node is (re)queued in its zone unless it already
 * carries the taint its Ready status calls for and is queued.
 */
export function markNodeForTainting(pass: TaintingPass, node: Node, status: 'False' | 'Unknown'): void {
  const queue = tainterOf(pass.state, node);
  const wanted = status === 'False' ? NOT_READY_TAINT_TEMPLATE : UNREACHABLE_TAINT_TEMPLATE;
  if (!taintExists(pass.writes.taintsOf(node), wanted)) queue.remove(node.metadata.name);
  queue.add(node.metadata.name, node.metadata.uid, pass.nowMs);
}

/**
 * processTaintBaseEviction mirrors Controller.processTaintBaseEviction on the Ready condition after this pass:
 * False or Unknown swap an opposite NoExecute taint at once, else queue the node for tainting; True makes it
 * reachable. A swap refused because the node's status write is in flight is decided again next pass.
 */
export function processTaintBaseEviction(pass: TaintingPass, node: Node, currentReady: NodeCondition): void {
  const taints = pass.writes.taintsOf(node);
  switch (currentReady.status) {
    case 'False':
      if (taintExists(taints, UNREACHABLE_TAINT_TEMPLATE))
        pass.writes.swapTaints(node, [NOT_READY_TAINT_TEMPLATE], [UNREACHABLE_TAINT_TEMPLATE]);
      else markNodeForTainting(pass, node, 'False');
      return;
    case 'Unknown':
      if (taintExists(taints, NOT_READY_TAINT_TEMPLATE))
        pass.writes.swapTaints(node, [UNREACHABLE_TAINT_TEMPLATE], [NOT_READY_TAINT_TEMPLATE]);
      else markNodeForTainting(pass, node, 'Unknown');
      return;
    case 'True':
      markNodeAsReachable(pass, node);
  }
}

/**
 * doNoExecuteTaintingPass mirrors Controller.doNoExecuteTaintingPass over every zone's queue: a due node, when the
 * limiter allows, gets the NoExecute taint its Ready condition calls for (the opposite one removed) and counts in
 * evictions_total; a node gone is dropped, one without Ready is retried after 50 ms, a Ready one dropped. A node
 * whose status write is in flight stops its zone's queue without taking a token until the write is seen (the
 * nodes handler then enqueues the pass). The taint is counted when its patch is published: a patch that fails
 * leaves the node untainted and the next monitor pass queues it again. Returns the ms until the pass is due again.
 */
export function doNoExecuteTaintingPass(
  pass: TaintingPass,
  nodes: Lister<Node>,
  metrics: NodeCollectorMetrics,
): number | undefined {
  for (const queue of pass.state.tainters.values()) {
    queue.try(
      pass.nowMs,
      (value) => {
        const node = nodes.get(value.value);
        if (node === undefined) return { done: true, waitMs: 0 };
        const ready = getCondition(node.status ?? {}, 'Ready');
        if (ready === undefined) return { done: false, waitMs: NO_EXECUTE_RETRY_MS };
        if (ready.status === 'True') return { done: true, waitMs: 0 };
        const [add, remove] =
          ready.status === 'False'
            ? [NOT_READY_TAINT_TEMPLATE, UNREACHABLE_TAINT_TEMPLATE]
            : [UNREACHABLE_TAINT_TEMPLATE, NOT_READY_TAINT_TEMPLATE];
        if (!pass.writes.swapTaints(node, [add], [remove])) return { done: false, waitMs: 0 };
        metrics.evictionsTotal(getZoneKey(node), 1);
        return { done: true, waitMs: 0 };
      },
      (value) => inFlight(pass.state, nodes.get(value.value)) || !pass.writes.writable(value.value),
    );
  }
  return nextPassMs(pass);
}

/** nextPassMs: the time until a queue's work is due, at least NodeEvictionPeriod; undefined when none can be (empty or stopped queues). */
function nextPassMs(pass: TaintingPass): number | undefined {
  const due = [...pass.state.tainters.values()].map((q) => q.nextDueMs(pass.nowMs)).filter((t) => t !== undefined);
  return due.length === 0 ? undefined : Math.max(NODE_EVICTION_PERIOD_MS, Math.min(...due) - pass.nowMs);
}
