import type { Node } from '@kcm-bus/k8s/node-v1.ts';
import { type EndpointSlice, LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from '@kcm-bus/k8s/discovery-v1.ts';
import type { HandlerOutput, ObjectEvent, Lister } from '@kcm-bus/runtime/controller/index.ts';
import { afterDelay } from '../handlers.ts';
import {
  ENDPOINT_SLICE_CHANGE_MIN_SYNC_DELAY_MS,
  LABEL_TOPOLOGY_ZONE,
  MANAGED_BY,
} from './endpointslice-controller.ts';
import { serviceControllerKey } from './slice-meta.ts';
import {
  getOverloadedServices,
  isNodeReady,
  type ServiceTopologyHints,
  zoneRatiosFromNodes,
} from './topology-cache.ts';

/** managedByController mirrors Reconciler.ManagedByController: the slice's managed-by label is this controller's. */
export function managedByController(slice: EndpointSlice): boolean {
  return slice.metadata.labels?.[LABEL_MANAGED_BY] === MANAGED_BY;
}

/**
 * endpointSliceEvent mirrors onEndpointSliceAdd, onEndpointSliceUpdate and onEndpointSliceDelete: the Service of a
 * slice this controller manages is enqueued after max(endpointSliceChangeMinSyncDelay, batch period); when the
 * service-name label changed, both Services; when the managed-by label moved to or from this controller, the
 * Service. Upstream also asks its EndpointSliceTracker whether the change is its own write (a generation it
 * expected) and then enqueues nothing; we have no such memory, so our own writes enqueue a sync too, which finds
 * the slices as it wants them and writes nothing.
 */
export function endpointSliceEvent(event: ObjectEvent<EndpointSlice>, batchMs: number): HandlerOutput {
  const delay = Math.max(ENDPOINT_SLICE_CHANGE_MIN_SYNC_DELAY_MS, batchMs);
  const slice = event.object;
  const old = event.type === 'Applied' ? event.old : undefined;
  if (old !== undefined && old.metadata.labels?.[LABEL_SERVICE_NAME] !== slice.metadata.labels?.[LABEL_SERVICE_NAME]) {
    return afterDelay(
      [...new Set([serviceControllerKey(slice), serviceControllerKey(old)])].filter((k) => k !== undefined),
      delay,
    );
  }
  const managedByChanged = old !== undefined && managedByController(old) !== managedByController(slice);
  const key = serviceControllerKey(slice);
  return afterDelay(key !== undefined && (managedByChanged || managedByController(slice)) ? [key] : [], delay);
}

/**
 * nodeEvent mirrors addNode, updateNode and deleteNode then checkNodeTopologyDistribution: a node added or deleted,
 * or one whose readiness or zone changed, re-reads the zone ratios of all nodes and enqueues at once the Services
 * whose topology hints are overloaded under them (hints: the member's topology cache entries by Service key).
 */
export function nodeEvent(
  event: ObjectEvent<Node>,
  nodes: Lister<Node>,
  hints: ReadonlyMap<string, ServiceTopologyHints>,
): HandlerOutput {
  const old = event.type === 'Applied' ? event.old : undefined;
  const zone = (n: Node): string | undefined => n.metadata.labels?.[LABEL_TOPOLOGY_ZONE];
  if (old !== undefined && isNodeReady(old) === isNodeReady(event.object) && zone(old) === zone(event.object))
    return { enqueue: [] };
  return { enqueue: getOverloadedServices(hints, zoneRatiosFromNodes(nodes.list())) };
}
