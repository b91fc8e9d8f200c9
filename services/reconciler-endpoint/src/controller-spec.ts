import type { Endpoints, Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import type { ControllerSpec, Listers } from '@kcm-bus/runtime/controller/index.ts';
import { isLeftoverCandidate, podEvent, serviceEvent } from './handlers.ts';
import { syncService } from './sync-service.ts';
import { TriggerTimeTracker } from './trigger-time-tracker.ts';

/** EndpointsInputs are the objects reconciler-endpoint reads, co-partitioned by namespace; a key is a Service's. */
export type EndpointsInputs = { readonly services: Service; readonly pods: Pod; readonly endpoints: Endpoints };

/** EndpointsConfig is the controller's tuning: endpointUpdatesBatchPeriod in ms (0: pod changes sync at once). */
export type EndpointsConfig = { readonly endpointUpdatesBatchPeriodMs: number };

/**
 * endpointsControllerSpec joins the pure pieces into upstream's endpoints controller: Service events enqueue the
 * Service (onServiceUpdate/onServiceDelete, serviceEvent); pod events enqueue the Services whose membership they change, after
 * the batch period (onPodUpdate, syncPod); Endpoints deletes and the restored Endpoints enqueue their Service
 * (onEndpointsDelete, checkLeftoverEndpoints); syncService decides. The trigger-time tracker is this member's
 * memory, as upstream's is the process's.
 */
export function endpointsControllerSpec(
  listers: Listers<EndpointsInputs>,
  config: EndpointsConfig,
): ControllerSpec<EndpointsInputs> {
  const tracker = new TriggerTimeTracker();
  return {
    handlers: {
      services: serviceEvent,
      pods: (event) => podEvent(event, listers.services, config.endpointUpdatesBatchPeriodMs),
      endpoints: (event) => ({ enqueue: isLeftoverCandidate(event) ? [event.key] : [] }),
    },
    reconcile: (key, input) => syncService(key, { ...input, ...listers, tracker }),
    maxRetries: MAX_RETRIES,
  };
}

/** MAX_RETRIES is endpoints_controller.go's maxRetries: a Service failing 15 retries in a row is dropped until its next event. */
export const MAX_RETRIES = 15;
