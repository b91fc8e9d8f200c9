import { type MutationDraft, mergePatchDraft } from '@kcm-bus/k8s/mutation-drafts.ts';
import { swapNodeControllerTaint, taintSetDiff } from '@kcm-bus/k8s/node-taints.ts';
import type { Node, Taint } from '@kcm-bus/k8s/node-v1.ts';
import { NODES } from './node-writes.ts';

/** nodeConditionToTaintKeyStatusMap: the NoSchedule taint each condition status calls for. */
const CONDITION_TAINTS: Readonly<Record<string, Readonly<Partial<Record<string, string>>>>> = {
  Ready: { False: 'node.kubernetes.io/not-ready', Unknown: 'node.kubernetes.io/unreachable' },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};

/** TAINT_NODE_UNSCHEDULABLE is v1.TaintNodeUnschedulable. */
const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

/** The taint keys the controller owns as NoSchedule taints (taintKeyToNodeConditionMap plus unschedulable). */
const CONTROLLER_NO_SCHEDULE_KEYS = new Set([
  ...Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)),
  TAINT_NODE_UNSCHEDULABLE,
]);

/** labelReconcileInfo: the stable label each deprecated beta label must copy (the beta one created if missing). */
const LABEL_RECONCILE_INFO = [
  { primaryKey: 'kubernetes.io/os', secondaryKey: 'beta.kubernetes.io/os' },
  { primaryKey: 'kubernetes.io/arch', secondaryKey: 'beta.kubernetes.io/arch' },
];

/**
 * noScheduleTaints mirrors doNoScheduleTaintingPass' decision: the node's taints with the controller's NoSchedule
 * taints made to mirror its conditions and spec.unschedulable (added ones stamped timeAdded = now, as
 * SwapNodeControllerTaint does), or undefined when they already do.
 */
export function noScheduleTaints(node: Node, now: Date): readonly Taint[] | undefined {
  const wanted: Taint[] = (node.status?.conditions ?? []).flatMap((c) => {
    const key = CONDITION_TAINTS[c.type]?.[c.status];
    return key === undefined ? [] : [{ key, effect: 'NoSchedule' as const }];
  });
  if (node.spec?.unschedulable === true) wanted.push({ key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule' });
  const taints = node.spec?.taints ?? [];
  const owned = taints.filter((t) => t.effect === 'NoSchedule' && CONTROLLER_NO_SCHEDULE_KEYS.has(t.key));
  const { toAdd, toRemove } = taintSetDiff(wanted, owned);
  return toAdd.length === 0 && toRemove.length === 0
    ? undefined
    : swapNodeControllerTaint(taints, toAdd, toRemove, now);
}

/** reconcileNodeLabels mirrors Controller.reconcileNodeLabels' decision: the beta os/arch labels to set, or undefined. */
export function reconcileNodeLabels(node: Node): Readonly<Record<string, string>> | undefined {
  const labels = node.metadata.labels;
  if (labels === undefined) return undefined;
  const update = Object.fromEntries(
    LABEL_RECONCILE_INFO.flatMap(({ primaryKey, secondaryKey }) => {
      const primary = labels[primaryKey];
      return primary === undefined || labels[secondaryKey] === primary ? [] : [[secondaryKey, primary] as const];
    }),
  );
  return Object.keys(update).length === 0 ? undefined : update;
}

/**
 * nodeUpdatePass is doNodeProcessingPassWorker for one node: doNoScheduleTaintingPass and reconcileNodeLabels,
 * published as one strategic merge patch (labels merged, spec.taints whole) guarded by the node's uid and
 * resourceVersion; a conflict means the node changed, and its update event brings the node back. Nothing for a
 * node gone or already in order.
 */
export function nodeUpdatePass(node: Node | undefined, now: Date): MutationDraft | undefined {
  if (node === undefined) return undefined;
  const taints = noScheduleTaints(node, now);
  const labels = reconcileNodeLabels(node);
  if (taints === undefined && labels === undefined) return undefined;
  const patch = {
    ...(labels === undefined ? {} : { metadata: { labels } }),
    ...(taints === undefined ? {} : { spec: { taints } }),
  };
  return mergePatchDraft(NODES, node, patch);
}
