import type { Node } from '@kcm-bus/k8s/node-v1.ts';
import type { Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import type { EndpointSlice } from '@kcm-bus/k8s/discovery-v1.ts';
import type { ControllerSpec, Listers, Decision } from '@kcm-bus/runtime/controller/index.ts';
import { podEvent, serviceEvent } from '../handlers.ts';
import { TriggerTimeTracker } from '../trigger-time-tracker.ts';
import { MAX_RETRIES } from './endpointslice-controller.ts';
import type { SliceMetricsSink } from './metrics.prom.ts';
import { endpointSliceEvent, nodeEvent } from './slice-handlers.ts';
import { syncEndpointSlices } from './sync-endpoint-slices.ts';
import type { ServiceTopologyHints } from './topology-cache.ts';

/** SliceInputs are what the endpointslice controller reads: Services, pods and slices by namespace, and every node. */
export type SliceInputs = {
  readonly services: Service;
  readonly pods: Pod;
  readonly endpointSlices: EndpointSlice;
  readonly nodes: Node;
};

/** SliceConfig is the controller's tuning: --max-endpoints-per-slice and --endpointslice-updates-batch-period (ms). */
export type SliceConfig = { readonly maxEndpointsPerSlice: number; readonly batchPeriodMs: number };

/**
 * endpointSliceControllerSpec joins the pure pieces into upstream's endpointslice controller: Service, pod, slice and
 * node events choose the Services (onServiceUpdate, onPodUpdate, onEndpointSlice*, checkNodeTopologyDistribution),
 * syncEndpointSlices decides, and each sync's metrics go to the sink. The trigger-time tracker and the topology cache
 * entries are this member's memory, as upstream's are the process's.
 */
export function endpointSliceControllerSpec(
  listers: Listers<SliceInputs>,
  config: SliceConfig,
  metrics: SliceMetricsSink,
): ControllerSpec<SliceInputs> {
  const tracker = new TriggerTimeTracker();
  const topology = new Map<string, ServiceTopologyHints>();
  const batch = config.batchPeriodMs;
  return {
    handlers: {
      services: serviceEvent,
      pods: (event) => podEvent(event, listers.services, batch),
      endpointSlices: (event) => endpointSliceEvent(event, batch),
      nodes: (event) => nodeEvent(event, listers.nodes, topology),
    },
    reconcile: (key, input): Decision => {
      const {
        metrics: observed,
        topology: entry,
        serviceDeleted,
        ...result
      } = syncEndpointSlices(key, {
        ...input,
        ...listers,
        tracker,
        topology: topology.get(key),
        maxEndpointsPerSlice: config.maxEndpointsPerSlice,
      });
      if (entry === undefined) topology.delete(key);
      else topology.set(key, entry);
      metrics.synced(key, { metrics: observed, serviceDeleted, error: result.error !== undefined });
      return result;
    },
    maxRetries: MAX_RETRIES,
  };
}
