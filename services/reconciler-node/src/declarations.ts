import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import type { Lease, Node } from '@kcm-bus/k8s/node-v1.ts';
import { NODE_LIFECYCLE_CONTROLLER, TAINT_EVICTION_CONTROLLER } from '@kcm-bus/catalog/controllers.ts';
import { declared, type Declared } from '@kcm-bus/runtime/controller/index.ts';
import { promNodeCollectorMetrics } from './node-health/metrics.prom.ts';
import { withStalenessLog } from './node-health/metrics.ts';
import { MONITOR_KEY, NO_EXECUTE_KEY, nodeHealthSpec } from './node-health/node-health-spec.ts';
import { NODE_LIFECYCLE_FLAGS, nodeLifecycleConfig } from './node-flags.ts';
import { POD_NODE_NAME_INDEXERS } from './pods-not-ready/pod-node-name-index.ts';
import { podsNotReadySpec } from './pods-not-ready/pods-not-ready-spec.ts';
import { promTaintEvictionMetrics } from './taint-eviction/metrics.prom.ts';
import { taintEvictionSpec } from './taint-eviction/taint-eviction-spec.ts';

const isPodKey = (key: string): boolean => key.includes('/');
const pods = { indexers: POD_NODE_NAME_INDEXERS };

/**
 * NODE_INPUTS_LINGER_MS holds node health's next fetch after one that brought records: its monitor pass reads the
 * Leases every --node-monitor-period (5 s), not one by one, and 500 nodes renew 50 a second. A node's change waits
 * at most this long more before its node pass (upstream's doNodeProcessingPassWorker) sees it.
 */
const NODE_INPUTS_LINGER_MS = 200;

/** nodeHealth is node lifecycle's node part: one active member (upstream's leader), nodes and Leases read whole. */
const nodeHealth = declared(
  NODE_LIFECYCLE_CONTROLLER,
  'node_lifecycle_controller',
)<{ nodes: Node; leases: Lease }>({
  tick: {
    flag: 'node-monitor-period',
    default: '5s',
    help: 'How often node health is judged (monitorNodeHealth) and the NoExecute tainting queues looked at.',
    keys: [MONITOR_KEY, NO_EXECUTE_KEY],
  },
  flags: NODE_LIFECYCLE_FLAGS,
  fetchLingerMs: NODE_INPUTS_LINGER_MS,
  spec: (listers, { flags, watermarks, log, registry }) => ({
    ...nodeHealthSpec(
      listers,
      nodeLifecycleConfig(flags),
      watermarks,
      withStalenessLog(promNodeCollectorMetrics(registry), log),
    ),
    ownsKey: (key) => !isPodKey(key),
  }),
});

/** podsNotReady is node lifecycle's pod part (MarkPodsNotReady), sharded with the pods by namespace. */
const podsNotReady = declared(
  NODE_LIFECYCLE_CONTROLLER,
  'node_lifecycle_controller_pods',
)<{ pods: Pod; nodes: Node }>({
  inputs: { pods },
  spec: (listers, { watermarks }) => ({ ...podsNotReadySpec(listers, watermarks), ownsKey: isPodKey }),
});

/** taintEviction is upstream's taint-eviction-controller, sharded with the pods by namespace. */
const taintEviction = declared(
  TAINT_EVICTION_CONTROLLER,
  'noexec_taint_pod',
)<{ pods: Pod; nodes: Node }>({
  inputs: { pods },
  spec: (listers, { registry }) => taintEvictionSpec(listers, promTaintEvictionMetrics(registry)),
});

/** DECLARATIONS are the controllers reconciler-node runs, each a catalog entry's part and its code. */
export const DECLARATIONS: readonly Declared[] = [nodeHealth, podsNotReady, taintEviction];
