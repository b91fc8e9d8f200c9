import type { EndpointAddress, EndpointPort, EndpointSubset, ObjectReference } from '@kcm-bus/k8s/core-v1.ts';
import { EVENT_SOURCE, LABEL_HEADLESS, LABEL_MANAGED_BY } from './endpoints-controller.ts';

const ref = (r: ObjectReference | undefined): unknown =>
  r === undefined
    ? null
    : [r.kind ?? '', r.namespace ?? '', r.name ?? '', r.uid ?? '', r.apiVersion ?? '', r.fieldPath ?? ''];
const address = (a: EndpointAddress): unknown => [a.ip, a.hostname ?? '', a.nodeName ?? null, ref(a.targetRef)];
const port = (p: EndpointPort): unknown => [p.name ?? '', p.port, p.protocol ?? '', p.appProtocol ?? null];
const subset = (s: EndpointSubset): unknown => [
  (s.addresses ?? []).map(address),
  (s.notReadyAddresses ?? []).map(address),
  (s.ports ?? []).map(port),
];

/**
 * endpointSubsetsEqualIgnoreResourceVersion mirrors endpoints_controller.go: semantic equality (a nil list equals an
 * empty one, an absent nodeName differs from an empty one, as pointers do) ignoring targetRef.resourceVersion.
 */
export function endpointSubsetsEqualIgnoreResourceVersion(
  a: readonly EndpointSubset[] | undefined,
  b: readonly EndpointSubset[] | undefined,
): boolean {
  return JSON.stringify((a ?? []).map(subset)) === JSON.stringify((b ?? []).map(subset));
}

/**
 * labelsCorrectForEndpoints mirrors endpoints_controller.go: the Endpoints carry the managed-by label of this
 * controller and, the headless and managed-by labels aside, exactly the Service's labels.
 */
export function labelsCorrectForEndpoints(
  endpointsLabels: Readonly<Record<string, string>> | undefined,
  serviceLabels: Readonly<Record<string, string>> | undefined,
): boolean {
  const ep = endpointsLabels ?? {};
  const svc = serviceLabels ?? {};
  if (ep[LABEL_MANAGED_BY] !== EVENT_SOURCE) return false;
  const own = Object.entries(ep).filter(([k]) => k !== LABEL_HEADLESS && k !== LABEL_MANAGED_BY);
  return own.every(([k, v]) => Object.hasOwn(svc, k) && svc[k] === v) && own.length === Object.keys(svc).length;
}
