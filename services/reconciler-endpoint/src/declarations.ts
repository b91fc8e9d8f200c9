import type { Endpoints, Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import { declared } from '@kcm-bus/runtime/reconcile/catalog-declaration.ts';
import type { ControllerDeclaration, Inputs } from '@kcm-bus/runtime/reconcile/declaration.ts';
import { byNamespace, NAMESPACE_INDEX } from '@kcm-bus/runtime/store/index-funcs.ts';
import { endpointsControllerSpec } from './controller-spec.ts';
import { CONTROLLER_NAME, POD_FIELDS } from './endpoints-controller.ts';

const BY_NAMESPACE = { [NAMESPACE_INDEX]: byNamespace };

/** endpoints is upstream's endpoints-controller, co-partitioned by namespace with Services and pods. */
const endpoints = declared<{ services: Service; pods: Pod; endpoints: Endpoints }>(CONTROLLER_NAME, 'endpoint', {
  inputs: { services: { indexers: BY_NAMESPACE }, pods: { indexers: BY_NAMESPACE, fields: POD_FIELDS } },
  flags: [{ name: 'endpoint-updates-batch-period', type: 'duration', default: '0s', help: 'Delay of pod-triggered syncs, batching a Service\'s pod changes (kube-controller-manager\'s flag; 0: none).' }],
  spec: (listers, { flags }) => endpointsControllerSpec(listers, { endpointUpdatesBatchPeriodMs: flags.duration('endpoint-updates-batch-period') }),
});

/** DECLARATIONS are the controllers reconciler-endpoint runs, each a catalog entry's part and its code. */
export const DECLARATIONS = [endpoints] as unknown as readonly ControllerDeclaration<Inputs>[];
