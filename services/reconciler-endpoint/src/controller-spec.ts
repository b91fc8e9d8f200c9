import type { Endpoints, Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import type { HandlerOutput } from '@kcm-bus/runtime/reconcile/controller.ts';
import type { ControllerSpec, Listers, ObjectEvent } from '@kcm-bus/runtime/reconcile/declaration.ts';
import type { Lister } from '@kcm-bus/runtime/reconcile/reconciler.ts';
import { getPodUpdateProjectionKey, getServicesToUpdate, isLeftoverCandidate } from './handlers.ts';
import { syncService } from './sync-service.ts';
import { TriggerTimeTracker } from './trigger-time-tracker.ts';

/** EndpointsInputs are the objects reconciler-endpoint reads, co-partitioned by namespace; a key is a Service's. */
export type EndpointsInputs = { readonly services: Service; readonly pods: Pod; readonly endpoints: Endpoints };

/** EndpointsConfig is the controller's tuning: endpointUpdatesBatchPeriod in ms (0: pod changes sync at once). */
export type EndpointsConfig = { readonly endpointUpdatesBatchPeriodMs: number };

/**
 * endpointsControllerSpec joins the pure pieces into upstream's endpoints controller: Service events enqueue the
 * Service (onServiceUpdate/onServiceDelete, serviceEvent); pod events enqueue the Services whose membership they change, after
 * the batch period (onPodUpdate, syncPod); Endpoints deletes and the replayed Endpoints enqueue their Service
 * (onEndpointsDelete, checkLeftoverEndpoints); syncService decides. The trigger-time tracker is this member's
 * memory, as upstream's is the process's.
 */
export function endpointsControllerSpec(listers: Listers<EndpointsInputs>, config: EndpointsConfig): ControllerSpec<EndpointsInputs> {
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

/**
 * serviceEvent enqueues the Service at once, whatever the batch period; a new one at its cut (once the pods topic is
 * known complete up to when the watcher saw the Service), so its first Endpoints hold the pods created just before it
 * rather than being written empty and then again, as upstream's informers let it.
 */
function serviceEvent(event: ObjectEvent<Service>): HandlerOutput {
  return event.type === 'Applied' && event.old === undefined ? { enqueue: [], enqueueAtCut: [event.key] } : { enqueue: [event.key] };
}

/** podEvent: queue.AddAfter(service, batchPeriod) for each Service the change touches; AddAfter(0) is Add. */
function podEvent(event: ObjectEvent<Pod>, services: Lister<Service>, batchMs: number): HandlerOutput {
  const projection = getPodUpdateProjectionKey(event);
  const keys = projection === undefined ? [] : getServicesToUpdate(services, projection);
  return batchMs <= 0 ? { enqueue: keys } : { enqueue: [], enqueueAfter: keys.map((key) => ({ key, ms: batchMs })) };
}
