import type { Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import type { AddressType, EndpointSlice } from '@kcm-bus/k8s/discovery-v1.ts';
import type { Node } from '@kcm-bus/k8s/node-v1.ts';
import type { Lister } from '@kcm-bus/runtime/controller/index.ts';
import { desiredEndpoints } from './desired-endpoints.ts';
import { portMapKey, type PortMapKey } from './endpoint-set.ts';
import { finalize, type SliceWrites } from './finalize.ts';
import { reconcileByPortMapping } from './reconcile-port-mapping.ts';
import type { EfficiencyInfo, SliceMetrics } from './slice-metrics.ts';
import { applyHints, type HintsOutcome } from './slice-hints.ts';
import { newEndpointSlice, ownedBy, placeholderSliceEqual } from './slice-meta.ts';
import type { ServiceTopologyHints, TopologyEvent, ZoneRatios } from './topology-cache.ts';

/** AddressTypeInput is what one address type's reconcile reads. */
export type AddressTypeInput = {
  readonly service: Service;
  readonly pods: readonly Pod[];
  /** existing: the Service's slices of this address type (owned by it or not). */
  readonly existing: readonly EndpointSlice[];
  readonly nodes: Pick<Lister<Node>, 'get'>;
  readonly triggerTime: number | undefined;
  readonly maxEndpointsPerSlice: number;
  readonly zoneRatios: ZoneRatios | undefined;
  readonly topology: ServiceTopologyHints | undefined;
};

/** AddressTypeResult is one address type's writes, topology events, node errors, cache entry and metrics. */
export type AddressTypeResult = {
  readonly writes: SliceWrites;
  readonly events: readonly TopologyEvent[];
  readonly errors: readonly string[];
  readonly topology: ServiceTopologyHints | undefined;
  readonly metrics: SliceMetrics;
};

/**
 * reconcileByAddressType mirrors Reconciler.reconcileByAddressType: slices not owned by the Service are deleted;
 * the others are reconciled per port mapping against the desired endpoints; slices of port mappings no longer
 * desired are deleted; a Service left with no slice gets the placeholder (an empty slice; an equal one is kept);
 * hints are set as topology-mode or trafficDistribution say; finalize turns it all into writes.
 */
export function reconcileByAddressType(input: AddressTypeInput, addressType: AddressType): AddressTypeResult {
  const { service, existing } = input;
  const toDelete = existing.filter((s) => !ownedBy(s, service));
  const existingByPortMap = new Map<PortMapKey, EndpointSlice[]>();
  for (const slice of existing.filter((s) => ownedBy(s, service))) {
    const key = portMapKey(slice.ports);
    existingByPortMap.set(key, [...(existingByPortMap.get(key) ?? []), slice]);
  }
  const desired = desiredEndpoints(service, input.pods, input.nodes, addressType);
  const toCreate: EndpointSlice[] = [];
  const toUpdate: EndpointSlice[] = [];
  const efficiency = new Map<PortMapKey, EfficiencyInfo>();
  let [added, removed] = [0, 0];
  for (const [key, group] of desired.groups) {
    const endpoints = group.endpoints.size;
    const current = existingByPortMap.get(key) ?? [];
    const changes = reconcileByPortMapping(service, current, group.endpoints, group.meta, input.maxEndpointsPerSlice);
    [added, removed] = [added + changes.added, removed + changes.removed];
    efficiency.set(key, { endpoints, slices: current.length + changes.toCreate.length - changes.toDelete.length });
    toCreate.push(...changes.toCreate);
    toUpdate.push(...changes.toUpdate);
    toDelete.push(...changes.toDelete);
  }
  for (const [key, slices] of existingByPortMap) if (!desired.groups.has(key)) toDelete.push(...slices);
  const kept = placeholder(input, addressType, { toCreate, toDelete, efficiency });
  const hinted = applyHints(input, addressType, { toCreate: kept.toCreate, toUpdate }, kept.toDelete);
  const writes = finalize(service, hinted.toCreate, hinted.toUpdate, kept.toDelete, input.triggerTime);
  const metrics = metricsOf(addressType, { added, removed, efficiency, writes }, hinted);
  return { writes, events: hinted.events, errors: desired.errors, topology: hinted.topology, metrics };
}

type Planned = {
  readonly toCreate: EndpointSlice[];
  readonly toDelete: EndpointSlice[];
  readonly efficiency: Map<PortMapKey, EfficiencyInfo>;
};

/**
 * placeholder is reconcileByAddressType's placeholder rule: when every existing slice goes and nothing is created,
 * the Service gets an empty slice of the type, unless the one slice going already is that placeholder (kept).
 */
function placeholder(input: AddressTypeInput, addressType: AddressType, planned: Planned): Planned {
  if (input.existing.length !== planned.toDelete.length || planned.toCreate.length > 0) return planned;
  const empty = newEndpointSlice(input.service, { ports: [], addressType });
  planned.efficiency.set(portMapKey([]), { endpoints: 0, slices: 1 });
  if (planned.toDelete.length === 1 && placeholderSliceEqual(planned.toDelete[0]!, empty))
    return { ...planned, toDelete: [] };
  return { ...planned, toCreate: [...planned.toCreate, empty] };
}

type Counts = {
  readonly added: number;
  readonly removed: number;
  readonly efficiency: ReadonlyMap<PortMapKey, EfficiencyInfo>;
  readonly writes: SliceWrites;
};

/** metricsOf is one address type's observations: added and removed endpoints, changes by operation, slices changed. */
function metricsOf(addressType: AddressType, counts: Counts, hinted: HintsOutcome): SliceMetrics {
  const { writes } = counts;
  return {
    endpointsAddedPerSync: [counts.added],
    endpointsRemovedPerSync: [counts.removed],
    changes: { create: writes.creates.length, update: writes.updates.length, delete: writes.deletes.length },
    slicesChangedPerSync: [
      { topology: hinted.topologyLabel, trafficDistribution: hinted.trafficDistribution ?? '', slices: writes.changed },
    ],
    servicePortCaches: [{ addressType, items: counts.efficiency }],
    trafficDistribution: hinted.trafficDistribution,
  };
}
