import { getZoneKey } from '@kcm-bus/k8s/node-taints.ts';
import { type Lease, type Node, NODE_LEASE_NAMESPACE, type NodeCondition } from '@kcm-bus/k8s/node-v1.ts';
import type { InputWatermarks, Listers } from '@kcm-bus/runtime/controller/index.ts';
import { handleDisruption, type ZoneConfig } from './handle-disruption.ts';
import type { NodeCollectorMetrics, NodeSilence } from './metrics.ts';
import { addPodEvictorForNewZone, inFlight, type NodeLifecycleState, published } from './node-lifecycle-state.ts';
import { NodeWrites, recordNodeEvent, recordNodeStatusChange } from './node-writes.ts';
import {
  doNoExecuteTaintingPass,
  markNodeAsReachable,
  processTaintBaseEviction,
  type TaintingPass,
} from './no-execute-tainting.ts';
import { tryUpdateNodeHealth } from './try-update-node-health.ts';

/** NodeHealthInputs are what the node health part reads, every member whole: all nodes and all Leases. */
export type NodeHealthInputs = { readonly nodes: Node; readonly leases: Lease };

/** MonitorConfig is the part of NodeLifecycleConfig a monitor pass reads. */
export type MonitorConfig = ZoneConfig & {
  readonly nodeMonitorGracePeriodMs: number;
  readonly nodeStartupGracePeriodMs: number;
};

/** MonitorPass is one monitor sync's context: the member's state, its listers, config, metrics, clock and inputs' watermarks. */
export type MonitorPass = {
  readonly state: NodeLifecycleState;
  readonly listers: Listers<NodeHealthInputs>;
  readonly config: MonitorConfig;
  readonly metrics: NodeCollectorMetrics;
  readonly now: Date;
  readonly watermarks: InputWatermarks<NodeHealthInputs>;
};

/** The label that keeps a node out of zone health (upstream's labelNodeDisruptionExclusion). */
const LABEL_NODE_DISRUPTION_EXCLUSION = 'node.kubernetes.io/exclude-disruption';

/** isNodeExcludedFromDisruptionChecks mirrors upstream: the exclude-disruption label, whatever its value. */
export function isNodeExcludedFromDisruptionChecks(node: Node): boolean {
  return node.metadata.labels?.[LABEL_NODE_DISRUPTION_EXCLUSION] !== undefined;
}

/**
 * monitorNodeHealth mirrors Controller.monitorNodeHealth for fresh inputs, without the pods (another part marks
 * them NotReady): classifyNodes and their events, tryUpdateNodeHealth per node (status written only when Ready
 * changed), processTaintBaseEviction, handleDisruption, then doNoExecuteTaintingPass on what it queued.
 * `newGracePeriod` grants every node a new grace period (first pass, or inputs fresh again after stale). Signs of life
 * and silence are read in the pipeline's time (HealthClock). Returns the pass's writes.
 */
export function monitorNodeHealth(pass: MonitorPass, newGracePeriod: boolean): NodeWrites {
  const { state, listers, config, metrics, now } = pass;
  const heartbeatAtMs = (name: string): number => heartbeatWatermarkMs(pass, name);
  const started = performance.now();
  const writes = new NodeWrites(now, (name) => inFlight(state, listers.nodes.get(name)));
  const tainting: TaintingPass = { state, writes, nowMs: now.getTime() };
  const nodes = listers.nodes.list();
  classifyNodes(pass, tainting, nodes);
  const zoneConditions = new Map<string, (NodeCondition | undefined)[]>();
  for (const node of nodes) {
    const nodeStarted = performance.now();
    const currentReady = updateNodeHealth(pass, { writes, newGracePeriod, heartbeatAtMs }, node);
    if (!isNodeExcludedFromDisruptionChecks(node)) {
      const zone = getZoneKey(node);
      zoneConditions
        .set(zone, zoneConditions.get(zone) ?? [])
        .get(zone)!
        .push(currentReady);
    }
    if (currentReady !== undefined) processTaintBaseEviction(tainting, node, currentReady);
    metrics.updateNodeHealthDuration((performance.now() - nodeStarted) / 1000);
  }
  handleDisruption({ ...tainting, config, metrics, heartbeatAtMs }, zoneConditions, nodes);
  doNoExecuteTaintingPass(tainting, listers.nodes, metrics);
  published(state, writes.written());
  metrics.updateAllNodesHealthDuration((performance.now() - started) / 1000);
  return writes;
}

/**
 * updateNodeHealth is monitorNodeHealth's tryUpdateNodeHealth for one node, dated in the pipeline's time: the node's
 * saved health is replaced, its status written when Ready changed (NodeNotReady with it, recorded once it applied:
 * upstream records it after UpdateStatus succeeded), the evidence of a silent node reported. Returns its Ready now.
 */
function updateNodeHealth(
  pass: MonitorPass,
  p: {
    readonly writes: NodeWrites;
    readonly newGracePeriod: boolean;
    readonly heartbeatAtMs: (name: string) => number;
  },
  node: Node,
): NodeCondition | undefined {
  const { state, listers, config, metrics, now } = pass;
  const name = node.metadata.name;
  const leaseKey = `${NODE_LEASE_NAMESPACE}/${name}`;
  const lease = listers.leases.get(leaseKey);
  const seen = { nodeSeenAtMs: state.seenAt.get(name), leaseSeenAtMs: state.seenAt.get(leaseKey) };
  const clock = { ...config, now, watermarkMs: p.heartbeatAtMs(name), ...seen, newGracePeriod: p.newGracePeriod };
  const update = tryUpdateNodeHealth(node, lease, state.health.get(name), clock);
  state.health.set(name, update.health);
  if (update.newStatus !== undefined) {
    const notReady = update.currentReady?.status !== 'True' && update.observedReady.status === 'True';
    p.writes.updateStatus(node, update.newStatus, notReady ? recordNodeStatusChange(node, 'NodeNotReady') : undefined);
    metrics.nodeSilent(name, silence(update.health.probeTimestamp, clock.watermarkMs, lease));
  }
  return update.currentReady;
}

/** silence is the evidence a node is marked Unknown on (NodeCollectorMetrics.nodeSilent). */
function silence(probeMs: number, knownMs: number, lease: Lease | undefined): NodeSilence {
  return {
    lastSignOfLife: new Date(probeMs).toISOString(),
    heartbeatWatermark: new Date(knownMs).toISOString(),
    leaseRenewTime: lease?.spec?.renewTime ?? undefined,
  };
}

/**
 * heartbeatWatermarkMs is the pipeline's time up to which the node's heartbeat is known complete here: the partition
 * of its Lease (every node's Lease is on the one partition of kube-node-lease, fresh with every other node's renewal),
 * or of the node itself when it has no Lease (a kubelet that only posts status). The monitor pass runs once both
 * inputs are known complete (staleness), so the input's own time and then the wall clock are mere fallbacks.
 */
function heartbeatWatermarkMs(pass: MonitorPass, name: string): number {
  const leaseKey = `${NODE_LEASE_NAMESPACE}/${name}`;
  const [input, key] =
    pass.listers.leases.get(leaseKey) === undefined ? (['nodes', name] as const) : (['leases', leaseKey] as const);
  return (pass.watermarks.watermark(input, key) ?? pass.watermarks.watermark(input) ?? pass.now).getTime();
}

/**
 * classifyNodes mirrors Controller.classifyNodes and its use in monitorNodeHealth: zones of known nodes without a
 * state get an evictor; new nodes get a RegisteredNode event, an evictor for their zone and markNodeAsReachable;
 * vanished ones a RemovingNode event.
 */
function classifyNodes(pass: MonitorPass, tainting: TaintingPass, nodes: readonly Node[]): void {
  const { state, config, metrics } = pass;
  const seen = new Set(nodes.map((n) => n.metadata.name));
  const added = nodes.filter((n) => !state.knownNodes.has(n.metadata.name));
  for (const node of nodes) {
    if (state.knownNodes.has(node.metadata.name))
      addPodEvictorForNewZone(state, node, config.evictionLimiterQPS, tainting.nowMs, metrics);
  }
  for (const node of added) {
    tainting.writes.event(
      recordNodeEvent(node, 'RegisteredNode', `Registered Node ${node.metadata.name} in Controller`),
    );
    state.knownNodes.set(node.metadata.name, node);
    addPodEvictorForNewZone(state, node, config.evictionLimiterQPS, tainting.nowMs, metrics);
    markNodeAsReachable(tainting, node);
  }
  for (const [name, node] of state.knownNodes) {
    if (seen.has(name)) continue;
    tainting.writes.event(recordNodeEvent(node, 'RemovingNode', `Removing Node ${name} from Controller`));
    state.knownNodes.delete(name);
  }
}
