import type { Service } from '@kcm-bus/k8s/core-v1.ts';
import type { Endpoint, EndpointSlice } from '@kcm-bus/k8s/discovery-v1.ts';
import { endpointHash, endpointsEqualBeyondHash, type EndpointSet, popAny } from './endpoint-set.ts';
import { type EndpointMeta, newEndpointSlice, setEndpointSliceLabels } from './slice-meta.ts';

/** PortMappingChanges is what reconcileByPortMapping decides for one group of slices, and the endpoints it adds and removes. */
export type PortMappingChanges = {
  readonly toCreate: readonly EndpointSlice[];
  readonly toUpdate: readonly EndpointSlice[];
  readonly toDelete: readonly EndpointSlice[];
  readonly added: number;
  readonly removed: number;
};

/**
 * reconcileByPortMapping mirrors Reconciler.reconcileByPortMapping for the slices of one address type and port
 * mapping: (1) each existing slice keeps its endpoints still desired, in their desired form, and is updated when one
 * changed or went (deleted when none is left) or its Service labels changed, else left unchanged; (2) the remaining
 * desired endpoints fill the slices being updated, fullest first; (3) what is still left fills the unchanged slice
 * that ends closest to full (when less than a slice's worth is left), else new slices. `desired` is consumed.
 */
export function reconcileByPortMapping(
  service: Service,
  existing: readonly EndpointSlice[],
  desired: EndpointSet,
  meta: EndpointMeta,
  maxEndpointsPerSlice: number,
): PortMappingChanges {
  const max = Math.max(1, maxEndpointsPerSlice);
  const { byName, toUpdate, toDelete, unchanged, removed } = keepDesired(service, existing, desired);
  const added = desired.size;
  if (desired.size > 0 && toUpdate.size > 0) {
    const fullestFirst = [...toUpdate]
      .map((n) => byName.get(n)!)
      .sort((a, b) => (b.endpoints ?? []).length - (a.endpoints ?? []).length);
    for (const slice of fullestFirst) byName.set(slice.metadata.name, fill(slice, desired, max));
  }
  const toCreate: EndpointSlice[] = [];
  while (desired.size > 0) {
    const candidates = desired.size < max ? [...unchanged].map((n) => byName.get(n)!) : [];
    const slice = fill(getSliceToFill(candidates, desired.size, max) ?? newEndpointSlice(service, meta), desired, max);
    if (slice.metadata.name === '') toCreate.push(slice);
    else {
      byName.set(slice.metadata.name, slice);
      toUpdate.add(slice.metadata.name);
      unchanged.delete(slice.metadata.name);
    }
  }
  const slices = (names: Iterable<string>): EndpointSlice[] => [...names].map((n) => byName.get(n)!);
  return { toCreate, toUpdate: slices(toUpdate), toDelete: slices(toDelete), added, removed };
}

type Kept = {
  readonly byName: Map<string, EndpointSlice>;
  readonly toUpdate: Set<string>;
  readonly toDelete: Set<string>;
  readonly unchanged: Set<string>;
  readonly removed: number;
};

/** keepDesired is reconcileByPortMapping's step 1: what each existing slice keeps, and whether it changes. */
function keepDesired(service: Service, existing: readonly EndpointSlice[], desired: EndpointSet): Kept {
  const [byName, toUpdate, toDelete, unchanged] = [
    new Map<string, EndpointSlice>(),
    new Set<string>(),
    new Set<string>(),
    new Set<string>(),
  ];
  let removed = 0;
  for (const slice of existing) {
    const name = slice.metadata.name;
    byName.set(name, slice);
    const { endpoints, updated } = desiredOf(slice.endpoints ?? [], desired);
    const { labels, changed } = setEndpointSliceLabels(slice.metadata.labels, service);
    const before = (slice.endpoints ?? []).length;
    if (updated || before !== endpoints.length) {
      removed += Math.max(0, before - endpoints.length);
      if (endpoints.length === 0) toDelete.add(name);
      else {
        byName.set(name, { ...slice, metadata: { ...slice.metadata, labels }, endpoints });
        toUpdate.add(name);
      }
    } else if (changed) {
      byName.set(name, { ...slice, metadata: { ...slice.metadata, labels } });
      toUpdate.add(name);
    } else unchanged.add(name);
  }
  return { byName, toUpdate, toDelete, unchanged, removed };
}

/** desiredOf: the desired form of each of a slice's endpoints still desired (taken out of `desired`), and whether one differs. */
function desiredOf(
  current: readonly Endpoint[],
  desired: EndpointSet,
): { readonly endpoints: Endpoint[]; readonly updated: boolean } {
  const endpoints: Endpoint[] = [];
  let updated = false;
  for (const endpoint of current) {
    const hash = endpointHash(endpoint);
    const got = desired.get(hash);
    if (got === undefined) continue;
    endpoints.push(got);
    if (!endpointsEqualBeyondHash(got, endpoint)) updated = true;
    desired.delete(hash);
  }
  return { endpoints, updated };
}

/** fill adds desired endpoints to a slice (a copy) until it holds max or none is left. */
function fill(slice: EndpointSlice, desired: EndpointSet, max: number): EndpointSlice {
  const endpoints = [...(slice.endpoints ?? [])];
  while (desired.size > 0 && endpoints.length < max) endpoints.push(popAny(desired)!);
  return { ...slice, endpoints };
}

/**
 * getSliceToFill mirrors utils.go getSliceToFill: the slice that numEndpoints more would bring closest to full
 * without overflowing it (the first exact fit at once); undefined when none has the room.
 */
export function getSliceToFill(
  slices: readonly EndpointSlice[],
  numEndpoints: number,
  maxEndpoints: number,
): EndpointSlice | undefined {
  let closestDiff = maxEndpoints;
  let closest: EndpointSlice | undefined;
  for (const slice of slices) {
    const diff = maxEndpoints - (numEndpoints + (slice.endpoints ?? []).length);
    if (diff >= 0 && diff < closestDiff) {
      [closestDiff, closest] = [diff, slice];
      if (diff === 0) return slice;
    }
  }
  return closest;
}
