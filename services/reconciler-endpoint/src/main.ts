import type { Endpoints, Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import { partitioned } from '@kcm-bus/runtime/reconcile/declaration.ts';
import { runController } from '@kcm-bus/runtime/reconcile/run-controller.node.ts';
import { byNamespace, NAMESPACE_INDEX } from '@kcm-bus/runtime/store/index-funcs.ts';
import { stateTopic } from '@kcm-bus/schemas/kinds.ts';
import { endpointsControllerSpec } from './controller-spec.ts';
import { CONTROLLER_NAME, ENDPOINTS, POD_FIELDS, PODS, SERVICES } from './endpoints-controller.ts';

const BY_NAMESPACE = { [NAMESPACE_INDEX]: byNamespace };

await runController({
  service: 'reconciler-endpoint',
  name: CONTROLLER_NAME,
  workqueue: 'endpoint',
  inputs: {
    services: partitioned<Service>(stateTopic(SERVICES), { indexers: BY_NAMESPACE }),
    pods: partitioned<Pod>(stateTopic(PODS), { indexers: BY_NAMESPACE, fields: POD_FIELDS }),
    endpoints: partitioned<Endpoints>(stateTopic(ENDPOINTS)),
  },
  workers: { name: 'concurrent-endpoint-syncs', default: 5, help: 'Services synced at once (kube-controller-manager\'s flag).' },
  flags: [{ name: 'endpoint-updates-batch-period', type: 'duration', default: '0s', help: 'Delay of pod-triggered syncs, batching a Service\'s pod changes (kube-controller-manager\'s flag; 0: none).' }],
  spec: (listers, { flags }) => endpointsControllerSpec(listers, { endpointUpdatesBatchPeriodMs: flags.duration('endpoint-updates-batch-period') }),
});
