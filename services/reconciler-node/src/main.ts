import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import type { Lease, Node } from '@kcm-bus/k8s/node-v1.ts';
import { global, partitioned, type ControllerDeclaration, type Inputs } from '@kcm-bus/runtime/reconcile/declaration.ts';
import { runControllers } from '@kcm-bus/runtime/reconcile/run-controller.node.ts';
import { stateTopic, watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { NODE_LIFECYCLE_CONTROLLER, TAINT_EVICTION_CONTROLLER } from './controller-names.ts';
import { promNodeCollectorMetrics } from './node-health/metrics.prom.ts';
import { withStalenessLog } from './node-health/metrics.ts';
import { MONITOR_KEY, NO_EXECUTE_KEY, nodeHealthSpec } from './node-health/node-health-spec.ts';
import { NODE_LIFECYCLE_FLAGS, nodeLifecycleConfig } from './node-flags.ts';
import { POD_NODE_NAME_INDEXERS } from './pods-not-ready/pod-node-name-index.ts';
import { podsNotReadySpec } from './pods-not-ready/pods-not-ready-spec.ts';
import { promTaintEvictionMetrics } from './taint-eviction/metrics.prom.ts';
import { taintEvictionSpec } from './taint-eviction/taint-eviction-spec.ts';

const SERVICE = 'reconciler-node';
const nodes = global<Node>(stateTopic(watchedKind('nodes')));
const pods = partitioned<Pod>(stateTopic(watchedKind('pods')), { indexers: POD_NODE_NAME_INDEXERS });
const isPodKey = (key: string): boolean => key.includes('/');

/** nodeHealth is node lifecycle's node half: one active member (upstream's leader), nodes and Leases read whole. */
const nodeHealth: ControllerDeclaration<{ nodes: Node; leases: Lease }> = {
  service: SERVICE, name: NODE_LIFECYCLE_CONTROLLER, workqueue: 'node_lifecycle_controller', singleton: true,
  inputs: { nodes, leases: global<Lease>(stateTopic(watchedKind('leases'))) },
  workers: { name: 'node-update-workers', default: 8, help: 'Nodes synced at once (upstream\'s nodeUpdateWorkerSize).' },
  tick: { flag: 'node-monitor-period', default: '5s', help: 'How often node health is judged (monitorNodeHealth) and the NoExecute tainting queues looked at.', keys: [MONITOR_KEY, NO_EXECUTE_KEY] },
  flags: NODE_LIFECYCLE_FLAGS,
  spec: (listers, { flags, clock, log, registry }) => ({
    ...nodeHealthSpec(listers, nodeLifecycleConfig(flags), clock, withStalenessLog(promNodeCollectorMetrics(registry), log)),
    ownsKey: (key) => !isPodKey(key),
  }),
};

/** podsNotReady is node lifecycle's pod half (MarkPodsNotReady), sharded with the pods by namespace. */
const podsNotReady: ControllerDeclaration<{ pods: Pod; nodes: Node }> = {
  service: SERVICE, name: NODE_LIFECYCLE_CONTROLLER, workqueue: 'node_lifecycle_controller_pods',
  inputs: { pods, nodes },
  workers: { name: 'pod-update-workers', default: 4, help: 'Pods marked NotReady at once (upstream\'s podUpdateWorkerSize).' },
  spec: (listers, { clock }) => ({ ...podsNotReadySpec(listers, clock), ownsKey: isPodKey }),
};

/** taintEviction is upstream's taint-eviction-controller, sharded with the pods by namespace. */
const taintEviction: ControllerDeclaration<{ pods: Pod; nodes: Node }> = {
  service: SERVICE, name: TAINT_EVICTION_CONTROLLER, workqueue: 'noexec_taint_pod',
  inputs: { pods, nodes },
  workers: { name: 'taint-eviction-workers', default: 8, help: 'Pods decided at once (upstream\'s UpdateWorkerSize).' },
  spec: (listers, { registry }) => taintEvictionSpec(listers, promTaintEvictionMetrics(registry)),
};

await runControllers([nodeHealth, podsNotReady, taintEviction] as unknown as readonly ControllerDeclaration<Inputs>[]);
