import type { Endpoints, Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import { ENDPOINTSLICE_CONTROLLER, ENDPOINTS_CONTROLLER } from '@kcm-bus/catalog/controllers.ts';
import { declared, type Declared } from '@kcm-bus/runtime/controller/index.ts';
import { byNamespace, NAMESPACE_INDEX } from '@kcm-bus/runtime/store/index.ts';
import { endpointsControllerSpec } from './controller-spec.ts';
import { POD_FIELDS } from './endpoints-controller.ts';
import {
  byServiceName,
  DEFAULT_MAX_ENDPOINTS_PER_SLICE,
  SERVICE_NAME_INDEX,
} from './slices/endpointslice-controller.ts';
import { promSliceMetrics } from './slices/metrics.prom.ts';
import { endpointSliceControllerSpec, type SliceInputs } from './slices/slice-controller-spec.ts';

const BY_NAMESPACE = { [NAMESPACE_INDEX]: byNamespace };

/** endpoints is upstream's endpoints-controller, co-partitioned by namespace with Services and pods. */
const endpoints = declared(
  ENDPOINTS_CONTROLLER,
  'endpoint',
)<{ services: Service; pods: Pod; endpoints: Endpoints }>({
  inputs: { services: { indexers: BY_NAMESPACE }, pods: { indexers: BY_NAMESPACE, fields: POD_FIELDS } },
  flags: [
    {
      name: 'endpoint-updates-batch-period',
      type: 'duration',
      default: '0s',
      help: "Delay of pod-triggered syncs, batching a Service's pod changes (kube-controller-manager's flag; 0: none).",
    },
  ],
  spec: (listers, { flags }) =>
    endpointsControllerSpec(listers, { endpointUpdatesBatchPeriodMs: flags.duration('endpoint-updates-batch-period') }),
});

/** NODE_FIELDS are what the endpointslice controller reads of a node: its zone, readiness and allocatable CPU. */
const NODE_FIELDS = ['metadata.name', 'metadata.labels', 'status.conditions', 'status.allocatable'];

/** endpointSlices is upstream's endpointslice-controller: Services, pods and slices by namespace, nodes read whole. */
const endpointSlices = declared(
  ENDPOINTSLICE_CONTROLLER,
  'endpoint_slice',
)<SliceInputs>({
  inputs: {
    services: { indexers: BY_NAMESPACE },
    pods: { indexers: BY_NAMESPACE, fields: POD_FIELDS },
    endpointSlices: { indexers: { [SERVICE_NAME_INDEX]: byServiceName } },
    nodes: { fields: NODE_FIELDS },
  },
  flags: [
    {
      name: 'max-endpoints-per-slice',
      type: 'number',
      default: DEFAULT_MAX_ENDPOINTS_PER_SLICE,
      help: "The most endpoints one EndpointSlice holds (kube-controller-manager's flag, 1 to 1000).",
    },
    {
      name: 'endpointslice-updates-batch-period',
      type: 'duration',
      default: '0s',
      help: "Delay of pod-triggered EndpointSlice syncs, batching a Service's pod changes (kube-controller-manager's flag; 0: none).",
    },
  ],
  // endpointslice_controller.go's serviceQueue: defaultSyncBackOff 1 s doubling to maxSyncBackOff 1000 s.
  retryBackoff: { baseDelayMs: 1000, maxDelayMs: 1_000_000 },
  spec: (listers, { flags, registry }) => {
    const maxEndpointsPerSlice = Math.min(1000, Math.max(1, flags.number('max-endpoints-per-slice')));
    const config = { maxEndpointsPerSlice, batchPeriodMs: flags.duration('endpointslice-updates-batch-period') };
    return endpointSliceControllerSpec(listers, config, promSliceMetrics(registry, maxEndpointsPerSlice));
  },
});

/** DECLARATIONS are the controllers reconciler-endpoint runs, each a catalog entry's part and its code. */
export const DECLARATIONS: readonly Declared[] = [endpoints, endpointSlices];
