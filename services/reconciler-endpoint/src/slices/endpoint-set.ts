import type { ObjectReference } from '@kcm-bus/k8s/core-v1.ts';
import type { Endpoint, EndpointPort } from '@kcm-bus/k8s/discovery-v1.ts';

/**
 * EndpointSet mirrors util.EndpointSet: endpoints by endpointHash, in insertion order, so that taking "any" endpoint
 * (PopAny) is the first one inserted and a replay of the same input packs the same slices.
 */
export type EndpointSet = Map<string, Endpoint>;

/**
 * endpointHash mirrors util.hashEndpoint: an endpoint's identity is its sorted addresses, its hostname and the
 * namespace and name of its target, so a change of conditions, node or zone is an update in place.
 */
export function endpointHash(endpoint: Endpoint): string {
  const { namespace = '', name = '' } = endpoint.targetRef ?? {};
  return JSON.stringify([endpoint.addresses.toSorted(), endpoint.hostname ?? '', namespace, name]);
}

/** endpointSetOf is an EndpointSet holding these endpoints (a later one with the same hash replaces the earlier). */
export function endpointSetOf(endpoints: Iterable<Endpoint>): EndpointSet {
  const set: EndpointSet = new Map();
  for (const endpoint of endpoints) set.set(endpointHash(endpoint), endpoint);
  return set;
}

/** popAny mirrors EndpointSet.PopAny: removes and returns one endpoint (the first inserted), undefined when empty. */
export function popAny(set: EndpointSet): Endpoint | undefined {
  const first = set.entries().next();
  if (first.done === true) return undefined;
  set.delete(first.value[0]);
  return first.value[1];
}

/** endpointReady mirrors topologycache.EndpointReady (and trafficdist's endpointReady): the Ready condition is set and true. */
export function endpointReady(endpoint: Endpoint): boolean {
  return endpoint.conditions?.ready === true;
}

/** withoutHints is the endpoint with its hints removed (`endpoint.Hints = nil`). */
export function withoutHints(endpoint: Endpoint): Endpoint {
  const { hints: _hints, ...rest } = endpoint;
  return rest;
}

/**
 * endpointsEqualBeyondHash mirrors util.EndpointsEqualBeyondHash: node name, zone, the three conditions (absent and
 * set differ) and the target (its resourceVersion ignored) are equal. Hints are not compared: the topology step
 * decides them.
 */
export function endpointsEqualBeyondHash(a: Endpoint, b: Endpoint): boolean {
  const [ca, cb] = [a.conditions ?? {}, b.conditions ?? {}];
  return (
    a.nodeName === b.nodeName &&
    a.zone === b.zone &&
    ca.ready === cb.ready &&
    ca.serving === cb.serving &&
    ca.terminating === cb.terminating &&
    targetRefsEqualIgnoreResourceVersion(a.targetRef, b.targetRef)
  );
}

const REF_FIELDS = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'fieldPath'] as const;

/** targetRefsEqualIgnoreResourceVersion is semanticIgnoreResourceVersion on two *ObjectReference: both nil, or equal but for resourceVersion. */
function targetRefsEqualIgnoreResourceVersion(a: ObjectReference | undefined, b: ObjectReference | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return REF_FIELDS.every((f) => (a[f] ?? '') === (b[f] ?? ''));
}

/**
 * PortMapKey mirrors util.PortMapKey: the identity of a set of endpoint ports, whatever their order (absent and
 * empty lists are the same set; an absent field differs from an empty one, as a nil pointer from a pointer to "").
 */
export type PortMapKey = string;

/** portMapKey mirrors util.NewPortMapKey. */
export function portMapKey(ports: readonly EndpointPort[] | undefined): PortMapKey {
  const each = (p: EndpointPort): string =>
    JSON.stringify([p.name ?? null, p.protocol ?? null, p.port ?? null, p.appProtocol ?? null]);
  return JSON.stringify((ports ?? []).map(each).toSorted());
}
