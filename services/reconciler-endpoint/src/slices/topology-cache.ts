import { getCondition } from '@kcm-bus/k8s/conditions.ts';
import type { AddressType } from '@kcm-bus/k8s/discovery-v1.ts';
import type { Node } from '@kcm-bus/k8s/node-v1.ts';
import type { EventType } from '@kcm-bus/runtime/mutation/index.ts';
import { milliValueOf } from '@kcm-bus/k8s/quantity-parse.ts';
import { LABEL_TOPOLOGY_ZONE } from './endpointslice-controller.ts';

/*
 * The pure half of topologycache/topologycache.go. Upstream's TopologyCache is one object holding the cluster's
 * zone CPU ratios (SetNodes, from node events) and, per Service, the hints it last allocated. Here the ratios are a
 * value computed from the nodes (zoneRatiosFromNodes) and a Service's allocation is a value (ServiceTopologyHints)
 * a sync reads and returns, for the member to keep as upstream's process keeps its cache.
 */

/** OVERLOAD_THRESHOLD is overloadThreshold: the most overload any endpoint should be exposed to (20 %). */
export const OVERLOAD_THRESHOLD = 0.2;

/** ZoneRatios is cpuRatiosByZone: each zone's share of the allocatable CPU of the ready worker nodes. */
export type ZoneRatios = Readonly<Record<string, number>>;

/** EndpointZoneInfo mirrors topologycache.EndpointZoneInfo: endpoints (hints) allocated per zone. */
export type EndpointZoneInfo = Readonly<Record<string, number>>;

/**
 * ServiceTopologyHints is one Service's entry of the cache: the zones' allocations by address type
 * (endpointsByService) and whether hints are populated (hintsPopulatedByService). undefined: no entry.
 */
export type ServiceTopologyHints = {
  readonly populated: boolean;
  readonly byAddressType: Readonly<Partial<Record<AddressType, EndpointZoneInfo>>>;
};

/** TopologyEvent mirrors topologycache.EventBuilder: an event about the Service, returned rather than recorded. */
export type TopologyEvent = { readonly type: EventType; readonly reason: string; readonly message: string };

/** TOPOLOGY_MESSAGES are event.go's messages, verbatim. */
export const TOPOLOGY_MESSAGES = {
  noZoneSpecified: 'One or more endpoints do not have a zone specified',
  noAllocatedHintsForZones: 'No hints allocated for zones',
  enabled: 'Topology Aware Hints has been enabled',
  disabled: 'Topology Aware Hints has been disabled',
  insufficientNodeInfo: 'Insufficient Node information: allocatable CPU or zone not specified on one or more nodes',
  nodesReadyInOneZoneOnly: 'Nodes only ready in one zone',
  insufficientNumberOfEndpoints: 'Insufficient number of endpoints',
  minAllocationExceedsOverloadThreshold:
    'Unable to allocate minimum required endpoints to each zone without exceeding overload threshold',
} as const;

/** formatWithAddressType mirrors utils.go FormatWithAddressType. */
export function formatWithAddressType(message: string, addressType: AddressType): string {
  return `${message}, addressType: ${addressType}`;
}

/** disabledEvent is the Warning TopologyAwareHintsDisabled event every failure to allocate hints records. */
export function disabledEvent(message: string): TopologyEvent {
  return { type: 'Warning', reason: 'TopologyAwareHintsDisabled', message };
}

const EXCLUDED_LABELS = ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'];

/**
 * zoneRatiosFromNodes mirrors TopologyCache.SetNodes: the ready nodes but control-plane ones, their allocatable CPU
 * summed by zone; undefined (hints impossible) as soon as one counted node lacks a zone or CPU, or when fewer than
 * two zones have CPU.
 */
export function zoneRatiosFromNodes(nodes: Iterable<Node>): ZoneRatios | undefined {
  const cpuByZone = new Map<string, number>();
  let total = 0;
  for (const node of nodes) {
    const labels = node.metadata.labels ?? {};
    if (EXCLUDED_LABELS.some((l) => Object.hasOwn(labels, l)) || !isNodeReady(node)) continue;
    const cpu = milliValueOf(node.status?.allocatable?.['cpu'] ?? '0') ?? 0;
    const zone = labels[LABEL_TOPOLOGY_ZONE] ?? '';
    if (zone === '' || cpu === 0) return undefined;
    total += cpu;
    cpuByZone.set(zone, (cpuByZone.get(zone) ?? 0) + cpu);
  }
  if (total === 0 || cpuByZone.size < 2) return undefined;
  return Object.fromEntries([...cpuByZone].map(([zone, cpu]) => [zone, cpu / total]));
}

/** isNodeReady mirrors topologycache's isNodeReady (and the controller's): the first Ready condition is True. */
export function isNodeReady(node: Node): boolean {
  return getCondition(node.status ?? {}, 'Ready')?.status === 'True';
}

/** Allocation mirrors topologycache's allocation: how many endpoints a zone should get. */
export type Allocation = { readonly minimum: number; readonly maximum: number; readonly desired: number };

/** Allocations are getAllocations' answer: the zones' allocations, or the event saying why there are none. */
export type Allocations = { readonly allocations: ReadonlyMap<string, Allocation> } | { readonly event: TopologyEvent };

/**
 * getAllocations mirrors TopologyCache.getAllocations: per zone, its CPU share of numEndpoints (desired), at least
 * the share less the overload threshold (minimum), at most its minimum plus what the other minimums leave; or the
 * reason hints are impossible (no ratios, one zone, fewer endpoints than zones, minimums above the total).
 */
export function getAllocations(ratios: ZoneRatios | undefined, numEndpoints: number): Allocations {
  if (ratios === undefined) return { event: disabledEvent(TOPOLOGY_MESSAGES.insufficientNodeInfo) };
  const zones = Object.entries(ratios);
  if (zones.length < 2) return { event: disabledEvent(TOPOLOGY_MESSAGES.nodesReadyInOneZoneOnly) };
  const counts = `(${numEndpoints} endpoints, ${zones.length} zones)`;
  if (zones.length > numEndpoints)
    return { event: disabledEvent(`${TOPOLOGY_MESSAGES.insufficientNumberOfEndpoints} ${counts}`) };
  let remaining = numEndpoints;
  const partial = new Map<string, { minimum: number; desired: number }>();
  for (const [zone, ratio] of zones) {
    const desired = ratio * numEndpoints;
    const minimum = Math.ceil(desired * (1 / (1 + OVERLOAD_THRESHOLD)));
    partial.set(zone, { minimum, desired: Math.max(desired, minimum) });
    remaining -= minimum;
    if (remaining < 0)
      return { event: disabledEvent(`${TOPOLOGY_MESSAGES.minAllocationExceedsOverloadThreshold} ${counts}`) };
  }
  const minTotal = numEndpoints - remaining;
  return {
    allocations: new Map(
      [...partial].map(([zone, a]) => [zone, { ...a, maximum: a.minimum + numEndpoints - minTotal }]),
    ),
  };
}

/** setHints mirrors TopologyCache.setHintsLocked: the address type's allocation recorded, hints populated. */
export function setHints(
  state: ServiceTopologyHints | undefined,
  addressType: AddressType,
  allocated: EndpointZoneInfo,
): ServiceTopologyHints {
  return { populated: true, byAddressType: { ...state?.byAddressType, [addressType]: allocated } };
}

/**
 * removeHints mirrors TopologyCache.RemoveHints: the address type's allocation forgotten, the entry with it when it
 * was the last, and the Service no longer populated (for every address type, as upstream).
 */
export function removeHints(
  state: ServiceTopologyHints | undefined,
  addressType: AddressType,
): ServiceTopologyHints | undefined {
  if (state === undefined) return undefined;
  const { [addressType]: _removed, ...byAddressType } = state.byAddressType;
  return Object.keys(byAddressType).length === 0 ? undefined : { populated: false, byAddressType };
}

/**
 * serviceOverloaded mirrors utils.go serviceOverloaded: some zone's share of the allocated endpoints is below its
 * CPU share less the overload threshold, or missing; none allocated is never overloaded, no ratios always.
 */
export function serviceOverloaded(ezi: EndpointZoneInfo, ratios: ZoneRatios | undefined): boolean {
  const counts = Object.values(ezi);
  if (counts.length === 0) return false;
  if (ratios === undefined || Object.keys(ratios).length === 0) return true;
  const total = counts.reduce((a, b) => a + b, 0);
  return Object.entries(ratios).some(([zone, ratio]) => {
    const have = ezi[zone];
    return have === undefined || have < Math.ceil(total * ratio * (1 / (1 + OVERLOAD_THRESHOLD)));
  });
}

/**
 * getOverloadedServices mirrors TopologyCache.GetOverloadedServices (checkNodeTopologyDistribution's choice after a
 * node change): the Services whose allocation of some address type is overloaded under the nodes' new ratios.
 */
export function getOverloadedServices(
  hints: ReadonlyMap<string, ServiceTopologyHints>,
  ratios: ZoneRatios | undefined,
): string[] {
  const overloaded = (h: ServiceTopologyHints): boolean =>
    Object.values(h.byAddressType).some((ezi) => serviceOverloaded(ezi, ratios));
  return [...hints].filter(([, h]) => overloaded(h)).map(([key]) => key);
}
