import { jsonEqual } from '@kcm-bus/k8s/json-equal.ts';
import {
  type MutationDraft,
  mergePatchDraft,
  recordEventDraft,
  updateStatusDraft,
  withOutcomeEvent,
} from '@kcm-bus/k8s/mutation-drafts.ts';
import { swapNodeControllerTaint, type TaintRef } from '@kcm-bus/k8s/node-taints.ts';
import type { Node, NodeStatus, Taint } from '@kcm-bus/k8s/node-v1.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { NODE_CONTROLLER_SOURCE } from '../controller-names.ts';

/** NODES is the Node kind as mutation targets name it. */
export const NODES = watchedKind('nodes');

/** recordNodeEvent mirrors controllerutil.RecordNodeEvent: a Normal event on the node, "Node <name> event: <event>". */
export function recordNodeEvent(node: Node, reason: string, event: string): MutationDraft {
  return recordEventDraft(
    NODE_CONTROLLER_SOURCE,
    { ...NODES, metadata: node.metadata },
    'Normal',
    reason,
    `Node ${node.metadata.name} event: ${event}`,
  );
}

/** recordNodeStatusChange mirrors controllerutil.RecordNodeStatusChange: "Node <name> status is now: <status>". */
export function recordNodeStatusChange(node: Node, status: string): MutationDraft {
  return recordEventDraft(
    NODE_CONTROLLER_SOURCE,
    { ...NODES, metadata: node.metadata },
    'Normal',
    status,
    `Node ${node.metadata.name} status is now: ${status}`,
  );
}

/**
 * NodeWrites collects one sync's writes to nodes: events in order, at most one status update per node
 * (UpdateStatus of the node as the lister holds it) and at most one taint patch per node, however many taint
 * swaps the sync made (the swaps apply to a working copy of the taints). Both writes are guarded by the
 * resourceVersion the lister holds, so a node whose status this sync writes gets no taint write in the same sync
 * (it would meet a conflict): swapTaints refuses, and the caller leaves that decision to a later sync.
 */
export class NodeWrites {
  readonly #events: MutationDraft[] = [];
  readonly #status = new Map<
    string,
    { readonly node: Node; readonly status: NodeStatus; readonly event: MutationDraft | undefined }
  >();
  readonly #taints = new Map<string, { readonly node: Node; taints: readonly Taint[] }>();
  readonly #now: Date;
  readonly #blocked: (name: string) => boolean;

  /** blocked says which nodes have a status write of an earlier sync still unobserved (their taints wait too). */
  constructor(now: Date, blocked: (name: string) => boolean) {
    this.#now = now;
    this.#blocked = blocked;
  }

  /** event records an event draft. */
  event(draft: MutationDraft): void {
    this.#events.push(draft);
  }

  /** updateStatus writes the node's new status (the node as the lister holds it), with the event to record once it applied. */
  updateStatus(node: Node, status: NodeStatus, event?: MutationDraft): void {
    this.#status.set(node.metadata.name, { node, status, event });
  }

  /** taintsOf is the node's taints as this sync left them. */
  taintsOf(node: Node): readonly Taint[] {
    return this.#taints.get(node.metadata.name)?.taints ?? node.spec?.taints ?? [];
  }

  /** writable: the node's taints may be written in this sync (no status write of its own in flight). */
  writable(name: string): boolean {
    return !this.#status.has(name) && !this.#blocked(name);
  }

  /** swapTaints is SwapNodeControllerTaint on the working copy; false (nothing done) when the node is not writable. */
  swapTaints(node: Node, toAdd: readonly TaintRef[], toRemove: readonly TaintRef[]): boolean {
    const name = node.metadata.name;
    if (!this.writable(name)) return false;
    const entry = this.#taints.get(name) ?? { node, taints: node.spec?.taints ?? [] };
    entry.taints = swapNodeControllerTaint(entry.taints, toAdd, toRemove, this.#now);
    this.#taints.set(name, entry);
    return true;
  }

  /** written names the nodes this sync writes (status or taints), with the resourceVersion each write is based on. */
  written(): ReadonlyMap<string, string> {
    const taints = [...this.#taints.values()]
      .filter(({ node, taints: t }) => !jsonEqual(t, node.spec?.taints ?? []))
      .map(({ node }) => node);
    return new Map(
      [...[...this.#status.values()].map(({ node }) => node), ...taints].map((node) => [
        node.metadata.name,
        node.metadata.resourceVersion ?? '',
      ]),
    );
  }

  /**
   * drafts are the sync's writes: events, status updates (with their outcome events), then one strategic merge patch of spec.taints (the whole
   * list, as PatchNodeTaints sends it) per node whose taints changed, guarded by uid and resourceVersion.
   */
  drafts(): MutationDraft[] {
    const status = [...this.#status.values()].map(({ node, status: s, event }) => {
      const draft = updateStatusDraft(NODES, node, s);
      return event === undefined ? draft : withOutcomeEvent(draft, event);
    });
    const taints = [...this.#taints.values()]
      .filter(({ node, taints: t }) => !jsonEqual(t, node.spec?.taints ?? []))
      .map(({ node, taints: t }) => mergePatchDraft(NODES, node, { spec: { taints: t } }));
    return [...this.#events, ...status, ...taints];
  }
}
