import type { Node, NodeCondition } from '@kcm-bus/k8s/node-v1.ts';
import type { NodeCollectorMetrics } from './metrics.ts';
import type { ZoneState } from './node-lifecycle-state.ts';
import { markNodeAsReachable, type TaintingPass } from './no-execute-tainting.ts';

/** ZoneConfig is the part of NodeLifecycleConfig zone states and their limiters read. */
export type ZoneConfig = {
  readonly evictionLimiterQPS: number;
  readonly secondaryEvictionLimiterQPS: number;
  readonly largeClusterThreshold: number;
  readonly unhealthyZoneThreshold: number;
};

/**
 * computeZoneState mirrors Controller.ComputeZoneState: no Ready node is FullDisruption, more than 2 not-Ready
 * nodes making at least unhealthyZoneThreshold of the zone is PartialDisruption, else Normal.
 */
export function computeZoneState(
  ready: readonly (NodeCondition | undefined)[],
  unhealthyZoneThreshold: number,
): { readonly notReady: number; readonly state: ZoneState } {
  const readyNodes = ready.filter((c) => c?.status === 'True').length;
  const notReady = ready.length - readyNodes;
  if (readyNodes === 0 && notReady > 0) return { notReady, state: 'FullDisruption' };
  if (notReady > 2 && notReady / ready.length >= unhealthyZoneThreshold)
    return { notReady, state: 'PartialDisruption' };
  return { notReady, state: 'Normal' };
}

/** reducedQPSFunc mirrors Controller.ReducedQPSFunc: the secondary rate in a zone larger than largeClusterThreshold, else 0. */
export function reducedQPSFunc(config: ZoneConfig, zoneSize: number): number {
  return zoneSize > config.largeClusterThreshold ? config.secondaryEvictionLimiterQPS : 0;
}

/** healthyQPSFunc mirrors Controller.HealthyQPSFunc: evictionLimiterQPS whatever the size. */
export function healthyQPSFunc(config: ZoneConfig): number {
  return config.evictionLimiterQPS;
}

/**
 * DisruptionPass is what handleDisruption reads besides the tainting pass; heartbeatAtMs is the pipeline's time a
 * node's heartbeat is known complete up to (the clock its probe timestamps are in).
 */
export type DisruptionPass = TaintingPass & {
  readonly config: ZoneConfig;
  readonly metrics: NodeCollectorMetrics;
  readonly heartbeatAtMs: (name: string) => number;
};

/**
 * handleDisruption mirrors Controller.handleDisruption: the zones' new states (and their metrics); entering
 * "all zones fully disrupted" removes every NoExecute taint and stops tainting; leaving it gives every node a fresh
 * grace period; otherwise each zone that changed state gets its limiter (setLimiterInZone). Not upstream: while all
 * zones stay fully disrupted, a NoExecute taint still on a node (its removal could not be written on entry) is
 * removed, as upstream's RetryOnConflict would have.
 */
export function handleDisruption(
  pass: DisruptionPass,
  zoneConditions: ReadonlyMap<string, readonly (NodeCondition | undefined)[]>,
  nodes: readonly Node[],
): void {
  const { state } = pass;
  const newStates = zoneStatesOf(pass, zoneConditions);
  const allAreFullyDisrupted = [...newStates.values()].every((s) => s === 'FullDisruption');
  const allWasFullyDisrupted = allWereFullyDisrupted(pass, zoneConditions);
  if (allAreFullyDisrupted && allWasFullyDisrupted) {
    if (newStates.size === 0) return;
    for (const node of nodes) markNodeAsReachable(pass, node);
  } else if (allAreFullyDisrupted) {
    for (const node of nodes) markNodeAsReachable(pass, node);
    for (const zone of state.zoneStates.keys()) {
      state.tainters.get(zone)?.swapLimiter(0, pass.nowMs);
      state.zoneStates.set(zone, 'FullDisruption');
    }
  } else {
    if (allWasFullyDisrupted) resetProbeTimestamps(pass, nodes);
    for (const [zone, current] of state.zoneStates) {
      const next = newStates.get(zone) ?? 'Initial';
      if (!allWasFullyDisrupted && current === next) continue;
      setLimiterInZone(pass, zone, zoneConditions.get(zone)?.length ?? 0, next);
      state.zoneStates.set(zone, next);
    }
  }
}

/** zoneStatesOf computes each zone's new state, records the zone metrics, and gives unseen zones the Initial state. */
function zoneStatesOf(
  pass: DisruptionPass,
  zoneConditions: ReadonlyMap<string, readonly (NodeCondition | undefined)[]>,
): Map<string, ZoneState> {
  const states = new Map<string, ZoneState>();
  for (const [zone, ready] of zoneConditions) {
    const { notReady, state } = computeZoneState(ready, pass.config.unhealthyZoneThreshold);
    pass.metrics.zoneSize(zone, ready.length);
    pass.metrics.zoneHealth(zone, (100 * (ready.length - notReady)) / ready.length);
    pass.metrics.unhealthyNodes(zone, notReady);
    states.set(zone, state);
    if (!pass.state.zoneStates.has(zone)) pass.state.zoneStates.set(zone, 'Initial');
  }
  return states;
}

/** allWereFullyDisrupted: every remembered zone was FullDisruption; zones without nodes now are forgotten on the way (upstream's loop, break included). */
function allWereFullyDisrupted(pass: DisruptionPass, zoneConditions: ReadonlyMap<string, unknown>): boolean {
  for (const [zone, state] of pass.state.zoneStates) {
    if (!zoneConditions.has(zone)) {
      pass.metrics.zoneSize(zone, 0);
      pass.metrics.zoneHealth(zone, 100);
      pass.metrics.unhealthyNodes(zone, 0);
      pass.state.zoneStates.delete(zone);
      continue;
    }
    if (state !== 'FullDisruption') return false;
  }
  return true;
}

/** resetProbeTimestamps gives every node a new grace period (leaving the all-zones-down mode), from its heartbeat's time. */
function resetProbeTimestamps(pass: DisruptionPass, nodes: readonly Node[]): void {
  for (const {
    metadata: { name },
  } of nodes) {
    const health = pass.state.health.get(name);
    const at = pass.heartbeatAtMs(name);
    if (health !== undefined)
      pass.state.health.set(name, { ...health, probeTimestamp: at, readyTransitionTimestamp: at });
  }
}

/** setLimiterInZone mirrors Controller.setLimiterInZone. */
function setLimiterInZone(pass: DisruptionPass, zone: string, zoneSize: number, state: ZoneState): void {
  const queue = pass.state.tainters.get(zone);
  if (state === 'Normal') queue?.swapLimiter(pass.config.evictionLimiterQPS, pass.nowMs);
  if (state === 'PartialDisruption') queue?.swapLimiter(reducedQPSFunc(pass.config, zoneSize), pass.nowMs);
  if (state === 'FullDisruption') queue?.swapLimiter(healthyQPSFunc(pass.config), pass.nowMs);
}
