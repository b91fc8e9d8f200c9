import type { EndpointSlice } from '@kcm-bus/k8s/discovery-v1.ts';
import { ENDPOINTSLICE_CONTROLLER } from '@kcm-bus/catalog/controllers.ts';
import { LABEL_SERVICE_NAME } from '@kcm-bus/k8s/discovery-v1.ts';

/*
 * Who the EndpointSlice controller is, as upstream's pkg/controller/endpointslice/endpointslice_controller.go
 * (v1.37.2) names it, its defaults, and the well-known names it reads (k8s.io/api/core/v1). Feature gates, at
 * v1.37.2's defaults: PreferSameTrafficDistribution is GA and locked on (kube_features.go, GA in 1.35), so
 * trafficDistribution PreferSameZone and PreferSameNode are honoured; TopologyAwareHints and
 * ServiceTrafficDistribution have no gate left (GA, removed): the topology cache always exists and
 * spec.trafficDistribution is always read.
 */

const ENTRY = ENDPOINTSLICE_CONTROLLER;

/** CONTROLLER_NAME is the controller's name in kube-controller-manager (--controllers), and our mutations' controller. */
export const CONTROLLER_NAME = ENTRY.name;
/** MANAGED_BY is upstream's ControllerName: the value of the managed-by label on every slice the controller owns. */
export const MANAGED_BY = 'endpointslice-controller.k8s.io';
/** EVENT_SOURCE is the EventSource component of the controller's recorder. */
export const EVENT_SOURCE = ENTRY.eventSource;
/** DEFAULT_MAX_ENDPOINTS_PER_SLICE is --max-endpoints-per-slice's default (allowed 1…1000). */
export const DEFAULT_MAX_ENDPOINTS_PER_SLICE = 100;
/** MAX_RETRIES is maxRetries: a Service failing 15 syncs in a row is dropped until its next event. */
export const MAX_RETRIES = 15;
/** ENDPOINT_SLICE_CHANGE_MIN_SYNC_DELAY_MS is endpointSliceChangeMinSyncDelay: a slice event syncs its Service no sooner. */
export const ENDPOINT_SLICE_CHANGE_MIN_SYNC_DELAY_MS = 1000;
/** PREFER_SAME_TRAFFIC_DISTRIBUTION is the PreferSameTrafficDistribution gate, GA and locked on in v1.37. */
export const PREFER_SAME_TRAFFIC_DISTRIBUTION = true;

/** LABEL_TOPOLOGY_ZONE is v1.LabelTopologyZone: a node's zone, copied to the endpoints of its pods. */
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
/** ANNOTATION_TOPOLOGY_MODE is v1.AnnotationTopologyMode: `Auto` asks for topology hints by zone CPU. */
export const ANNOTATION_TOPOLOGY_MODE = 'service.kubernetes.io/topology-mode';
/** ANNOTATION_TOPOLOGY_AWARE_HINTS is v1.DeprecatedAnnotationTopologyAwareHints; it wins over the mode annotation. */
export const ANNOTATION_TOPOLOGY_AWARE_HINTS = 'service.kubernetes.io/topology-aware-hints';

/** SERVICE_NAME_INDEX names the index of slices by `namespace/<service-name label>` (the syncService label selector's lookup). */
export const SERVICE_NAME_INDEX = 'serviceName';

/** byServiceName indexes a slice under `namespace/serviceName` of its service-name label; a slice without it is left out. */
export function byServiceName(slice: EndpointSlice): readonly string[] {
  const name = slice.metadata.labels?.[LABEL_SERVICE_NAME];
  return name === undefined ? [] : [`${slice.metadata.namespace ?? ''}/${name}`];
}
