import { getCondition } from '@kcm-bus/k8s/conditions.ts';
import { jsonEqual } from '@kcm-bus/k8s/json-equal.ts';
import { rfc3339, timeMs } from '@kcm-bus/k8s/meta-v1.ts';
import type { Lease, Node, NodeCondition, NodeStatus } from '@kcm-bus/k8s/node-v1.ts';

/**
 * NodeHealthData mirrors upstream's nodeHealthData: when this member last saw a sign of life (probeTimestamp) and a
 * Ready transition (readyTransitionTimestamp), with the status and Lease it saw then. Both times are the pipeline's,
 * in epoch ms: when the watcher read the record that carried them (HealthClock), not when this member got to them.
 */
export type NodeHealthData = {
  readonly probeTimestamp: number;
  readonly readyTransitionTimestamp: number;
  readonly status: NodeStatus | undefined;
  readonly lease: Lease | undefined;
};

/**
 * HealthClock is what tryUpdateNodeHealth judges by. Upstream reads one clock, its own, trusting its informers to be
 * current; here the node's signs of life and its silence are both read in the pipeline's time (the watcher's clock):
 * - watermarkMs: the node's heartbeat (its Lease, or its status when it has none) is known complete here up to this
 *   time (the InputWatermarks); its silence is counted up to it, never on past it, where a renewal may wait unread;
 * - nodeSeenAtMs, leaseSeenAtMs: when the watcher read the node and the Lease as this member holds them (undefined:
 *   not known, then watermarkMs stands in);
 * - now: the wall clock, for the times the written conditions carry.
 */
export type HealthClock = {
  readonly now: Date;
  readonly watermarkMs: number;
  readonly nodeSeenAtMs: number | undefined;
  readonly leaseSeenAtMs: number | undefined;
  readonly nodeMonitorGracePeriodMs: number;
  readonly nodeStartupGracePeriodMs: number;
  /** newGracePeriod: the member's first fresh pass (or the first after stale input): every grace period starts now. */
  readonly newGracePeriod: boolean;
};

/**
 * NodeHealthUpdate is tryUpdateNodeHealth's answer: the health to save, the Ready condition the node showed
 * (observed) and the one after this pass (current), and the status to write when Ready changed (UpdateStatus).
 */
export type NodeHealthUpdate = {
  readonly health: NodeHealthData;
  readonly observedReady: NodeCondition;
  readonly currentReady: NodeCondition | undefined;
  readonly newStatus: NodeStatus | undefined;
};

/** The conditions a silent node gets set to Unknown (NetworkUnavailable is the control plane's). */
const CONDITIONS_TO_UNKNOWN = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

/**
 * tryUpdateNodeHealth mirrors Controller.tryUpdateNodeHealth without the lease circuit breaker (gate
 * NodeControllerLeaseCircuitBreaker, beta and on in 1.37: a live GET of the Lease before going Unknown), whose job
 * (never mark a node on a Lease cache older than the API) is done here by reading silence in the pipeline's time
 * (HealthClock): first sight, a changed Ready heartbeat or a renewed Lease move probeTimestamp to when the watcher
 * read them; once the node's heartbeat is known complete past probeTimestamp + grace period, the Ready/MemoryPressure/
 * DiskPressure/PIDPressure conditions become Unknown (NodeStatusUnknown, or NodeStatusNeverUpdated when missing), and
 * the status is written when Ready changed.
 */
export function tryUpdateNodeHealth(
  node: Node,
  lease: Lease | undefined,
  saved: NodeHealthData | undefined,
  clock: HealthClock,
): NodeHealthUpdate {
  const at = clock.watermarkMs;
  const status = node.status ?? {};
  const currentReady = getCondition(status, 'Ready');
  const created = node.metadata.creationTimestamp;
  const observedReady = currentReady ?? {
    type: 'Ready',
    status: 'Unknown',
    ...(created === undefined ? {} : { lastHeartbeatTime: created, lastTransitionTime: created }),
  };
  const gracePeriod = currentReady === undefined ? clock.nodeStartupGracePeriodMs : clock.nodeMonitorGracePeriodMs;
  const prior =
    saved !== undefined && clock.newGracePeriod
      ? { ...saved, probeTimestamp: at, readyTransitionTimestamp: at }
      : saved;
  let health =
    currentReady === undefined
      ? startupHealth(status, prior, clock.newGracePeriod ? at : (timeMs(created) ?? 0))
      : prior;
  health = probedHealth(status, currentReady, health, prior, { firstSight: at, heartbeat: clock.nodeSeenAtMs ?? at });
  const savedLease = prior?.lease;
  if (lease !== undefined && (savedLease === undefined || before(savedLease, lease))) {
    health = { ...health, lease, probeTimestamp: Math.max(health.probeTimestamp, clock.leaseSeenAtMs ?? at) };
  }
  if (!(at > health.probeTimestamp + gracePeriod)) return { health, observedReady, currentReady, newStatus: undefined };
  const newStatus = { ...status, conditions: conditionsToUnknown(node, clock.now) };
  const newReady = getCondition(newStatus, 'Ready');
  if (jsonEqual(newReady, observedReady))
    return { health, observedReady, currentReady: newReady, newStatus: undefined };
  const written = { status: newStatus, probeTimestamp: health.probeTimestamp, readyTransitionTimestamp: at, lease };
  return { health: written, observedReady, currentReady: newReady, newStatus };
}

/** startupHealth: a node without a Ready condition is judged from its creation (the startup grace period). */
function startupHealth(status: NodeStatus, saved: NodeHealthData | undefined, since: number): NodeHealthData {
  if (saved !== undefined) return { ...saved, status };
  return { status, probeTimestamp: since, readyTransitionTimestamp: since, lease: undefined };
}

/**
 * probedHealth is tryUpdateNodeHealth's case analysis: first sight makes probeTimestamp the pipeline's now; a Ready
 * condition appearing or disappearing, or a new Ready heartbeat, make it the time the node's record was read (and
 * readyTransitionTimestamp too when the transition time moved), never earlier than it was: a record read long ago
 * (restored at a member's start) is no fresher sign of life than first sight. `saved` is the health before this
 * pass, `health` the one after the startup case.
 */
function probedHealth(
  status: NodeStatus,
  currentReady: NodeCondition | undefined,
  health: NodeHealthData | undefined,
  saved: NodeHealthData | undefined,
  times: { readonly firstSight: number; readonly heartbeat: number },
): NodeHealthData {
  if (health === undefined)
    return { status, probeTimestamp: times.firstSight, readyTransitionTimestamp: times.firstSight, lease: undefined };
  const probed = Math.max(health.probeTimestamp, times.heartbeat);
  const fresh = (transition: number): NodeHealthData => ({
    status,
    probeTimestamp: probed,
    readyTransitionTimestamp: transition,
    lease: undefined,
  });
  const savedReady = health === saved && saved.status !== undefined ? getCondition(saved.status, 'Ready') : undefined;
  if ((savedReady === undefined) !== (currentReady === undefined)) return fresh(probed);
  if (
    savedReady === undefined ||
    currentReady === undefined ||
    savedReady.lastHeartbeatTime === currentReady.lastHeartbeatTime
  )
    return health;
  return fresh(
    savedReady.lastTransitionTime === currentReady.lastTransitionTime ? health.readyTransitionTimestamp : probed,
  );
}

/** before mirrors MicroTime.Before on the Leases' renewTime: false when either is unset. */
function before(a: Lease, b: Lease): boolean {
  const [ta, tb] = [timeMs(a.spec?.renewTime), timeMs(b.spec?.renewTime)];
  return ta !== undefined && tb !== undefined && ta < tb;
}

/** conditionsToUnknown sets the silent node's conditions to Unknown, appending those the kubelet never posted. */
function conditionsToUnknown(node: Node, now: Date): NodeCondition[] {
  const at = rfc3339(now);
  const created = node.metadata.creationTimestamp;
  const conditions = (node.status?.conditions ?? []).map((c) =>
    CONDITIONS_TO_UNKNOWN.includes(c.type) && c.status !== 'Unknown'
      ? {
          ...c,
          status: 'Unknown' as const,
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
          lastTransitionTime: at,
        }
      : c,
  );
  const missing = CONDITIONS_TO_UNKNOWN.filter((type) => !conditions.some((c) => c.type === type)).map(
    (type): NodeCondition => ({
      type,
      status: 'Unknown',
      reason: 'NodeStatusNeverUpdated',
      message: 'Kubelet never posted node status.',
      ...(created === undefined ? {} : { lastHeartbeatTime: created }),
      lastTransitionTime: at,
    }),
  );
  return [...conditions, ...missing];
}
