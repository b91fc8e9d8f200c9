import type { AddressType, Endpoint, EndpointSlice } from '@kcm-bus/k8s/discovery-v1.ts';
import { endpointReady, withoutHints } from './endpoint-set.ts';
import {
  type Allocation,
  disabledEvent,
  formatWithAddressType,
  getAllocations,
  removeHints,
  type ServiceTopologyHints,
  setHints,
  TOPOLOGY_MESSAGES,
  type TopologyEvent,
  type ZoneRatios,
} from './topology-cache.ts';
import { getGivingAndReceivingZones, redistributeHints } from './topology-redistribute.ts';

/** SliceInfo mirrors topologycache.SliceInfo: one address type's slices of a Service, by what the sync does to them. */
export type SliceInfo = {
  readonly serviceKey: string;
  readonly addressType: AddressType;
  readonly toCreate: readonly EndpointSlice[];
  readonly toUpdate: readonly EndpointSlice[];
  readonly unchanged: readonly EndpointSlice[];
};

/** HintedSlices is what a hints step returns: the slices to create and to update, with their hints set or cleared. */
export type HintedSlices = { readonly toCreate: readonly EndpointSlice[]; readonly toUpdate: readonly EndpointSlice[] };

/** ZoneCounts are endpoints (or hints) counted per zone, as a hints step builds them. */
export type ZoneCounts = Map<string, number>;

/**
 * removeHintsFromSlices mirrors utils.go RemoveHintsFromSlices: every endpoint of the slices to create or update
 * loses its hints, and an unchanged slice holding any becomes an update without them.
 */
export function removeHintsFromSlices(si: SliceInfo): HintedSlices {
  const strip = (slice: EndpointSlice): EndpointSlice => ({
    ...slice,
    endpoints: (slice.endpoints ?? []).map(withoutHints),
  });
  const hinted = si.unchanged.filter((s) => (s.endpoints ?? []).some((e) => e.hints !== undefined));
  return { toCreate: si.toCreate.map(strip), toUpdate: [...si.toUpdate, ...hinted].map(strip) };
}

/** AddHintsResult is what addHints returns: the slices, the events to record and the Service's new cache entry. */
export type AddHintsResult = HintedSlices & {
  readonly events: readonly TopologyEvent[];
  readonly state: ServiceTopologyHints | undefined;
};

/**
 * addHints mirrors TopologyCache.AddHints for service.kubernetes.io/topology-mode Auto: allocate the ready
 * endpoints to zones by their CPU share; unchanged slices whose hints no longer fit are updated; every ready
 * endpoint is first hinted for its own zone, then the zones above their share give endpoints to those below.
 * Hints are removed, with a TopologyAwareHintsDisabled warning, when allocation is impossible, an endpoint has no
 * zone, or nothing was allocated; the first success records TopologyAwareHintsEnabled. As upstream, a not-ready
 * endpoint keeps whatever hint it had (upstream clears it on the loop's copy only).
 */
export function addHints(
  si: SliceInfo,
  ratios: ZoneRatios | undefined,
  state: ServiceTopologyHints | undefined,
): AddHintsResult {
  const total = [...si.toCreate, ...si.toUpdate, ...si.unchanged].reduce(
    (n, s) => n + (s.endpoints ?? []).filter(endpointReady).length,
    0,
  );
  const found = getAllocations(ratios, total);
  if ('event' in found) return disable(si, state, formatWithAddressType(found.event.message, si.addressType));
  const allocations = found.allocations;
  const { allocated, info } = getAllocatedHintsByZone(si, allocations);
  const toCreate = info.toCreate.map(copyEndpoints);
  const toUpdate = info.toUpdate.map(copyEndpoints);
  const allocatable = [...toCreate, ...toUpdate];
  for (const slice of allocatable) {
    for (const [i, endpoint] of slice.endpoints.entries()) {
      if (!endpointReady(endpoint)) continue;
      if ((endpoint.zone ?? '') === '')
        return disable(info, state, formatWithAddressType(TOPOLOGY_MESSAGES.noZoneSpecified, si.addressType));
      allocated.set(endpoint.zone!, (allocated.get(endpoint.zone!) ?? 0) + 1);
      slice.endpoints[i] = { ...endpoint, hints: { forZones: [{ name: endpoint.zone! }] } };
    }
  }
  const { giving, receiving } = getGivingAndReceivingZones(allocations, allocated);
  for (const [zone, diff] of redistributeHints(allocatable, giving, receiving))
    allocated.set(zone, (allocated.get(zone) ?? 0) + diff);
  if (allocated.size === 0)
    return disable(info, state, formatWithAddressType(TOPOLOGY_MESSAGES.noAllocatedHintsForZones, si.addressType));
  const message = formatWithAddressType(TOPOLOGY_MESSAGES.enabled, si.addressType);
  const enabled: TopologyEvent = { type: 'Normal', reason: 'TopologyAwareHintsEnabled', message };
  const events = state?.populated === true ? [] : [enabled];
  return { toCreate, toUpdate, events, state: setHints(state, si.addressType, Object.fromEntries(allocated)) };
}

/** MutableSlice is a slice whose endpoint list is this step's own copy, so hints can be set by index. */
export type MutableSlice = EndpointSlice & { readonly endpoints: Endpoint[] };

function copyEndpoints(slice: EndpointSlice): MutableSlice {
  return { ...slice, endpoints: [...(slice.endpoints ?? [])] };
}

function disable(si: SliceInfo, state: ServiceTopologyHints | undefined, message: string): AddHintsResult {
  return { ...removeHintsFromSlices(si), events: [disabledEvent(message)], state: removeHints(state, si.addressType) };
}

/**
 * getAllocatedHintsByZone mirrors SliceInfo.getAllocatedHintsByZone: the hints the unchanged slices already give
 * each zone; an unchanged slice whose hints are invalid (getHintsByZone) moves to the updates.
 */
export function getAllocatedHintsByZone(
  si: SliceInfo,
  allocations: ReadonlyMap<string, Allocation>,
): { readonly allocated: ZoneCounts; readonly info: SliceInfo } {
  const allocated = new Map<string, number>();
  const unchanged: EndpointSlice[] = [];
  const toUpdate = [...si.toUpdate];
  for (const slice of si.unchanged) {
    const byZone = getHintsByZone(slice, allocated, allocations);
    if (byZone === undefined) toUpdate.push(slice);
    else {
      unchanged.push(slice);
      for (const [zone, n] of byZone) allocated.set(zone, (allocated.get(zone) ?? 0) + n);
    }
  }
  return { allocated, info: { ...si, toUpdate, unchanged } };
}

/**
 * getHintsByZone mirrors utils.go getHintsByZone: the hints a slice's ready endpoints give each zone, or undefined
 * when the slice must be updated: a ready endpoint without zone hints, a hint for a zone without allocation, or a
 * zone past its maximum with what is already allocated.
 */
export function getHintsByZone(
  slice: EndpointSlice,
  allocated: ReadonlyMap<string, number>,
  allocations: ReadonlyMap<string, Allocation>,
): ZoneCounts | undefined {
  const byZone = new Map<string, number>();
  for (const endpoint of slice.endpoints ?? []) {
    if (!endpointReady(endpoint)) continue;
    const zones = endpoint.hints?.forZones ?? [];
    if (zones.length === 0) return undefined;
    for (const { name } of zones) {
      if (!allocations.has(name)) return undefined;
      byZone.set(name, (byZone.get(name) ?? 0) + 1);
    }
  }
  for (const [zone, n] of byZone) if (n + (allocated.get(zone) ?? 0) > allocations.get(zone)!.maximum) return undefined;
  return byZone;
}
