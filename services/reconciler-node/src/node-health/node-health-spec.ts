import { type MutationDraft, mutationLog } from '@kcm-bus/k8s/mutation-drafts.ts';
import type {
  ReconcileInput,
  ControllerSpec,
  InputWatermarks,
  Listers,
  Decision,
} from '@kcm-bus/runtime/controller/index.ts';
import type { NodeCollectorMetrics } from './metrics.ts';
import { type MonitorConfig, monitorNodeHealth, type NodeHealthInputs } from './monitor-node-health.ts';
import {
  inFlight,
  newNodeLifecycleState,
  type NodeLifecycleState,
  published as recordPublished,
  sawRecord,
} from './node-lifecycle-state.ts';
import { NODE_LIFECYCLE_CONTROLLER } from '../controller-names.ts';
import { NodeWrites } from './node-writes.ts';
import { nodeUpdatePass } from './node-update-pass.ts';
import { doNoExecuteTaintingPass } from './no-execute-tainting.ts';

export type { NodeHealthInputs } from './monitor-node-health.ts';

/**
 * NodeLifecycleConfig is the node health part's tuning, upstream's flags in ms and per second:
 * --node-monitor-grace-period, --node-startup-grace-period, --node-eviction-rate, --secondary-node-eviction-rate,
 * --large-cluster-size-threshold, --unhealthy-zone-threshold; maxInputStalenessMs (not upstream) is how old the
 * nodes or leases input may be known complete before the monitor pass judges nothing.
 */
export type NodeLifecycleConfig = MonitorConfig & { readonly maxInputStalenessMs: number };

/** DEFAULT_NODE_LIFECYCLE_CONFIG holds upstream's defaults (v1.37.2) and a 20 s staleness bound. */
export const DEFAULT_NODE_LIFECYCLE_CONFIG: NodeLifecycleConfig = {
  nodeMonitorGracePeriodMs: 50_000,
  nodeStartupGracePeriodMs: 60_000,
  evictionLimiterQPS: 0.1,
  secondaryEvictionLimiterQPS: 0.01,
  largeClusterThreshold: 50,
  unhealthyZoneThreshold: 0.55,
  maxInputStalenessMs: 20_000,
};

/** MONITOR_KEY is the key of the monitor pass (the active member ticks it every --node-monitor-period); no node has this name. */
export const MONITOR_KEY = '~monitor-node-health';

/** NO_EXECUTE_KEY is the key of the NoExecute tainting pass (upstream's 100 ms doNoExecuteTaintingPass loop). */
export const NO_EXECUTE_KEY = '~no-execute-tainting';

/**
 * nodeHealthSpec is upstream's node lifecycle controller without pods, as a singleton controller: MONITOR_KEY runs
 * monitorNodeHealth then the NoExecute tainting pass; NO_EXECUTE_KEY runs the tainting pass alone and asks to run
 * again while a zone queue holds work (the active member's tick should enqueue both keys, so work left waiting for a token
 * by a monitor pass gets its pass); any other key is a node name (doNodeProcessingPassWorker). Node events
 * enqueue the node, and NO_EXECUTE_KEY while a zone queue holds work (so a node waiting for its own status write
 * to be seen is tainted once it is); Lease events enqueue nothing (the monitor pass reads them). Both note when the
 * watcher read the record (the time a sign of life is dated by, sawRecord). A node with a
 * write of any of the three in flight gets no other until that one is read back (they are all guarded by the same
 * resourceVersion; the nodes handler brings the node back). The NodeLifecycleState is this member's memory. Failed writes (ReconcileInput.failures) are not read: every pass
 * decides again from the state its inputs show.
 */
export function nodeHealthSpec(
  listers: Listers<NodeHealthInputs>,
  config: NodeLifecycleConfig,
  watermarks: InputWatermarks<NodeHealthInputs>,
  metrics: NodeCollectorMetrics,
): ControllerSpec<NodeHealthInputs> {
  const state = newNodeLifecycleState();
  const queued = (): boolean => [...state.tainters.values()].some((q) => q.size() > 0);
  return {
    // Each node's own writes are guarded here (inFlight); a monitor pass held for them would stop judging staleness.
    waitsForOwnWrites: false,
    handlers: {
      nodes: (event) => {
        sawRecord(state, event);
        return { enqueue: event.type === 'Deleted' ? [] : [event.key, ...(queued() ? [NO_EXECUTE_KEY] : [])] };
      },
      leases: (event) => (sawRecord(state, event), { enqueue: [] }),
    },
    reconcile: (key, input) => {
      if (key === MONITOR_KEY) return monitorSync(state, { listers, config, watermarks, metrics }, input);
      if (key === NO_EXECUTE_KEY) return noExecuteSync(state, { listers, config, watermarks, metrics }, input);
      const node = listers.nodes.get(key);
      const draft = inFlight(state, node) ? undefined : nodeUpdatePass(node, input.now);
      if (draft !== undefined && node !== undefined)
        recordPublished(state, new Map([[key, node.metadata.resourceVersion ?? '']]));
      return published(key, input, draft === undefined ? [] : [draft]);
    },
  };
}

type Deps = {
  readonly listers: Listers<NodeHealthInputs>;
  readonly config: NodeLifecycleConfig;
  readonly watermarks: InputWatermarks<NodeHealthInputs>;
  readonly metrics: NodeCollectorMetrics;
};

/**
 * monitorSync checks the inputs first: a stale view judges nothing (no Unknown, no taint, no write) and is
 * reported through metrics.inputsStale; the first fresh pass after a stale one (or the member's first) gives every
 * node a new grace period.
 */
function monitorSync(state: NodeLifecycleState, deps: Deps, input: ReconcileInput): Decision {
  const stale = staleness(deps, input.now);
  deps.metrics.inputsStale(stale !== undefined, stale ?? '');
  if (stale !== undefined) {
    state.newGracePeriod = true;
    return { mutations: [] };
  }
  const writes = monitorNodeHealth({ ...deps, state, now: input.now }, state.newGracePeriod);
  state.newGracePeriod = false;
  return published(MONITOR_KEY, input, writes.drafts());
}

/** noExecuteSync is doNoExecuteTaintingPass on its own; nothing while the inputs are stale. */
function noExecuteSync(state: NodeLifecycleState, deps: Deps, input: ReconcileInput): Decision {
  if (staleness(deps, input.now) !== undefined) return { mutations: [] };
  const writes = new NodeWrites(input.now, (name) => inFlight(state, deps.listers.nodes.get(name)));
  const next = doNoExecuteTaintingPass({ state, writes, nowMs: input.now.getTime() }, deps.listers.nodes, deps.metrics);
  recordPublished(state, writes.written());
  return published(NO_EXECUTE_KEY, input, writes.drafts(), next);
}

/** staleness says why the nodes or leases input is stale at `now` (unknown, or known complete too long ago), or undefined. */
function staleness(deps: Deps, now: Date): string | undefined {
  for (const input of ['nodes', 'leases'] as const) {
    const at = deps.watermarks.watermark(input);
    if (at === undefined) return `${input} input not yet known complete`;
    const age = now.getTime() - at.getTime();
    if (age > deps.config.maxInputStalenessMs)
      return `${input} input known complete ${age} ms ago (max ${deps.config.maxInputStalenessMs} ms)`;
  }
  return undefined;
}

function published(
  key: string,
  input: ReconcileInput,
  drafts: readonly MutationDraft[],
  requeueAfterMs?: number,
): Decision {
  const log = mutationLog(NODE_LIFECYCLE_CONTROLLER, key, input.cause, input.now, input.attempt);
  for (const draft of drafts) log.push(draft);
  return { mutations: log.mutations(), ...(requeueAfterMs === undefined ? {} : { requeueAfterMs }) };
}
