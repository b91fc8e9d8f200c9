import type { OwnerReference, Service } from '@kcm-bus/k8s/core-v1.ts';
import {
  type AddressType,
  type EndpointPort,
  type EndpointSlice,
  LABEL_MANAGED_BY,
  LABEL_SERVICE_NAME,
} from '@kcm-bus/k8s/discovery-v1.ts';
import { jsonEqual } from '@kcm-bus/k8s/json-equal.ts';
import { type Labels, labelsEqual } from '@kcm-bus/k8s/labels.ts';
import { rfc3339Nano } from '@kcm-bus/k8s/meta-v1.ts';
import { ANNOTATION_TRIGGER_TIME, LABEL_HEADLESS } from '../endpoints-controller.ts';
import { ANNOTATION_TOPOLOGY_AWARE_HINTS, ANNOTATION_TOPOLOGY_MODE, MANAGED_BY } from './endpointslice-controller.ts';

/** EndpointMeta mirrors reconciler.go endpointMeta: what the slices of one group share (their ports and address type). */
export type EndpointMeta = { readonly ports: readonly EndpointPort[]; readonly addressType: AddressType };

/**
 * newEndpointSlice mirrors utils.go newEndpointSlice: an empty slice of the group, not yet named (name and uid "",
 * as Go's zero values: the create's generateName `<service>-` names it), in the Service's namespace, controlled by
 * the Service, labelled as setEndpointSliceLabels says.
 */
export function newEndpointSlice(service: Service, meta: EndpointMeta): EndpointSlice {
  const { namespace, name } = service.metadata;
  const metadata = {
    name: '',
    uid: '',
    generateName: getEndpointSlicePrefix(name),
    ...(namespace !== undefined ? { namespace } : {}),
    labels: setEndpointSliceLabels(undefined, service).labels,
    ownerReferences: [serviceControllerRef(service)],
  };
  return { metadata, addressType: meta.addressType, endpoints: [], ports: meta.ports };
}

/** serviceControllerRef is metav1.NewControllerRef(service, v1 Service): controller and blockOwnerDeletion set. */
function serviceControllerRef(service: Service): OwnerReference {
  const { name, uid } = service.metadata;
  return { apiVersion: 'v1', kind: 'Service', name, uid, controller: true, blockOwnerDeletion: true };
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** getEndpointSlicePrefix mirrors utils.go: `<service>-`, or the bare name when that is no valid generateName prefix. */
export function getEndpointSlicePrefix(serviceName: string): string {
  const prefix = `${serviceName}-`;
  return prefix.length <= 253 && DNS1123_SUBDOMAIN.test(`${serviceName}a`) ? prefix : serviceName;
}

/**
 * setEndpointSliceLabels mirrors utils.go setEndpointSliceLabels: the Service's labels but the reserved ones, plus
 * headless (when the Service has no cluster IP), service-name and managed-by; `changed` says whether the slice's
 * own non-reserved labels differ from the Service's (a change of headless alone updates nothing).
 */
export function setEndpointSliceLabels(
  sliceLabels: Labels,
  service: Service,
): { readonly labels: Record<string, string>; readonly changed: boolean } {
  const serviceLabels = withoutReserved(service.metadata.labels);
  const changed = !labelsEqual(withoutReserved(sliceLabels), serviceLabels);
  const labels = { ...serviceLabels };
  if (!isServiceIPSet(service)) labels[LABEL_HEADLESS] = '';
  labels[LABEL_SERVICE_NAME] = service.metadata.name;
  labels[LABEL_MANAGED_BY] = MANAGED_BY;
  return { labels, changed };
}

const RESERVED_LABELS: ReadonlySet<string> = new Set([LABEL_SERVICE_NAME, LABEL_MANAGED_BY, LABEL_HEADLESS]);

/** withoutReserved mirrors isReservedLabelKey's filter: the labels but service-name, managed-by and headless. */
function withoutReserved(labels: Labels): Record<string, string> {
  return Object.fromEntries(Object.entries(labels ?? {}).filter(([k]) => !RESERVED_LABELS.has(k)));
}

/** isServiceIPSet mirrors utils.go isServiceIPSet: the cluster IP is neither "" nor None. */
export function isServiceIPSet(service: Service): boolean {
  const clusterIP = service.spec?.clusterIP ?? '';
  return clusterIP !== '' && clusterIP !== 'None';
}

/** ownedBy mirrors utils.go ownedBy: an owner reference of the slice names this Service (uid, kind Service, v1). */
export function ownedBy(slice: EndpointSlice, service: Service): boolean {
  return (slice.metadata.ownerReferences ?? []).some(
    (o) => o.uid === service.metadata.uid && o.kind === 'Service' && o.apiVersion === 'v1',
  );
}

/** serviceControllerKey mirrors utils.go ServiceControllerKey: `namespace/<service-name label>`; undefined without the label. */
export function serviceControllerKey(slice: EndpointSlice): string | undefined {
  const name = slice.metadata.labels?.[LABEL_SERVICE_NAME] ?? '';
  return name === '' ? undefined : `${slice.metadata.namespace ?? ''}/${name}`;
}

/**
 * placeholderSliceEqual mirrors reconciler.go placeholderSliceCompare: equal but for metadata, of which only the
 * namespace and the labels count (a label valued "" equals a missing one, as Go's map lookup gives ""); absent
 * and empty lists are equal.
 */
export function placeholderSliceEqual(a: EndpointSlice, b: EndpointSlice): boolean {
  const [la, lb] = [a.metadata.labels ?? {}, b.metadata.labels ?? {}];
  const labelsMatch =
    Object.entries(la).every(([k, v]) => (lb[k] ?? '') === v) &&
    Object.entries(lb).every(([k, v]) => (la[k] ?? '') === v);
  return (
    (a.metadata.namespace ?? '') === (b.metadata.namespace ?? '') &&
    labelsMatch &&
    a.addressType === b.addressType &&
    jsonEqual(a.ports ?? [], b.ports ?? []) &&
    jsonEqual(a.endpoints ?? [], b.endpoints ?? [])
  );
}

/**
 * withTriggerTime mirrors utils.go addTriggerTimeAnnotation: the last-change-trigger-time annotation set to the
 * trigger time (RFC 3339 with nanoseconds, UTC), or removed when there is none (Go's zero time).
 */
export function withTriggerTime(slice: EndpointSlice, triggerTime: number | undefined): EndpointSlice {
  const annotations: Record<string, string> = { ...slice.metadata.annotations };
  if (triggerTime !== undefined) annotations[ANNOTATION_TRIGGER_TIME] = rfc3339Nano(new Date(triggerTime));
  else delete annotations[ANNOTATION_TRIGGER_TIME];
  const { annotations: _dropped, ...metadata } = slice.metadata;
  return { ...slice, metadata: Object.keys(annotations).length > 0 ? { ...metadata, annotations } : metadata };
}

/**
 * hintsEnabled mirrors utils.go hintsEnabled: the deprecated topology-aware-hints annotation, else the
 * topology-mode one, is `Auto` or `auto`.
 */
export function hintsEnabled(annotations: Labels): boolean {
  const value = annotations?.[ANNOTATION_TOPOLOGY_AWARE_HINTS] ?? annotations?.[ANNOTATION_TOPOLOGY_MODE];
  return value === 'Auto' || value === 'auto';
}
