import type { Node } from '@kcm-bus/k8s/node-v1.ts';
import { getZoneKey } from '@kcm-bus/k8s/node-taints.ts';
import type { NodeCollectorMetrics } from './metrics.ts';
import { EVICTION_RATE_LIMITER_BURST, RateLimitedTimedQueue, tokenBucketRateLimiter } from './rate-limited-queue.ts';
import type { NodeHealthData } from './try-update-node-health.ts';

/** ZoneState mirrors upstream's ZoneState. */
export type ZoneState = 'Initial' | 'Normal' | 'FullDisruption' | 'PartialDisruption';

/**
 * NodeLifecycleState is what upstream's Controller keeps in its process, kept here by the active member (it starts
 * empty on every member, as upstream's does at leader election): knownNodeSet, nodeHealthMap, zoneStates, the zone
 * tainting queues (zoneNoExecuteTainter); plus kcm-bus's own: the node writes published and not yet seen in the
 * nodes input (name → the resourceVersion the write was based on), so no second write of a node (status, NoSchedule
 * or NoExecute taints, all guarded by that version) goes out to meet a conflict before the first is read back;
 * when the watcher read each node and Lease as the stores hold them (seenAt, by store key: the pipeline's time of a
 * sign of life); and whether the next monitor pass grants every node a new grace period (newGracePeriod: true until the
 * first fresh pass, and again after stale inputs).
 */
export type NodeLifecycleState = {
  readonly knownNodes: Map<string, Node>;
  readonly health: Map<string, NodeHealthData>;
  readonly zoneStates: Map<string, ZoneState>;
  readonly tainters: Map<string, RateLimitedTimedQueue>;
  readonly writesInFlight: Map<string, string>;
  readonly seenAt: Map<string, number>;
  newGracePeriod: boolean;
};

/** newNodeLifecycleState is a member's state before its first pass. */
export function newNodeLifecycleState(): NodeLifecycleState {
  return {
    knownNodes: new Map(),
    health: new Map(),
    zoneStates: new Map(),
    tainters: new Map(),
    writesInFlight: new Map(),
    seenAt: new Map(),
    newGracePeriod: true,
  };
}

/** sawRecord notes when the watcher read the object's new version (a delete drops it; an add made as the member becomes active has no time). */
export function sawRecord(
  state: NodeLifecycleState,
  event: { readonly type: string; readonly key: string; readonly observedAt?: Date | undefined },
): void {
  if (event.type === 'Deleted') state.seenAt.delete(event.key);
  else if (event.observedAt !== undefined) state.seenAt.set(event.key, event.observedAt.getTime());
}

/**
 * addPodEvictorForNewZone mirrors Controller.addPodEvictorForNewZone: a zone seen for the first time starts
 * Initial with a tainting queue at evictionLimiterQPS, and its evictions_total series at 0.
 */
export function addPodEvictorForNewZone(
  state: NodeLifecycleState,
  node: Node,
  qps: number,
  nowMs: number,
  metrics: NodeCollectorMetrics,
): void {
  const zone = getZoneKey(node);
  if (state.zoneStates.has(zone)) return;
  state.zoneStates.set(zone, 'Initial');
  state.tainters.set(zone, new RateLimitedTimedQueue(tokenBucketRateLimiter(qps, EVICTION_RATE_LIMITER_BURST, nowMs)));
  metrics.evictionsTotal(zone, 0);
}

/** tainterOf is the node's zone's tainting queue (every zone a node is in got one in classifyNodes). */
export function tainterOf(state: NodeLifecycleState, node: Node): RateLimitedTimedQueue {
  const zone = getZoneKey(node);
  const queue = state.tainters.get(zone);
  if (queue === undefined)
    throw new Error(`no tainting queue for zone ${JSON.stringify(zone)} of node ${node.metadata.name}`);
  return queue;
}

/** inFlight: a write of this node is published and the nodes input does not show it yet (nor any later change). */
export function inFlight(state: NodeLifecycleState, node: Node | undefined): boolean {
  if (node === undefined) return false;
  const base = state.writesInFlight.get(node.metadata.name);
  if (base === undefined) return false;
  if (base === (node.metadata.resourceVersion ?? '')) return true;
  state.writesInFlight.delete(node.metadata.name);
  return false;
}

/** published records the nodes a sync writes, each with the resourceVersion its write was based on. */
export function published(state: NodeLifecycleState, written: ReadonlyMap<string, string>): void {
  for (const [name, rv] of written) state.writesInFlight.set(name, rv);
}
