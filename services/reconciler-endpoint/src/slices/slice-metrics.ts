import type { AddressType } from '@kcm-bus/k8s/discovery-v1.ts';
import type { PortMapKey } from './endpoint-set.ts';

/*
 * The endpoint_slice_controller_* observations of one sync (k8s.io/endpointslice/metrics), as values: the wiring
 * feeds them to its registry. Upstream counts a change only once its API call succeeded; these are the writes the
 * sync publishes (a failure comes back as a result, and the next sync's error).
 */

/** EfficiencyInfo mirrors metrics.EfficiencyInfo: the endpoints and slices of one port mapping. */
export type EfficiencyInfo = { readonly endpoints: number; readonly slices: number };

/**
 * ServicePortCache mirrors metrics.ServicePortCache: one address type's EfficiencyInfo by port mapping. Upstream
 * sets the Service's entry of its cache once per address type, so the one it visits last (Go map order) stays.
 */
export type ServicePortCache = {
  readonly addressType: AddressType;
  readonly items: ReadonlyMap<PortMapKey, EfficiencyInfo>;
};

/** ChangedPerSync is one endpointslices_changed_per_sync observation with its labels (topology Auto or Disabled). */
export type ChangedPerSync = {
  readonly topology: 'Auto' | 'Disabled';
  readonly trafficDistribution: string;
  readonly slices: number;
};

/**
 * SliceMetrics are a sync's observations: endpoints_added_per_sync and endpoints_removed_per_sync (one per address
 * type), changes{operation}, endpointslices_changed_per_sync, the service port caches behind the desired and actual
 * slice gauges, and the Service's trafficDistribution (services_count_by_traffic_distribution; undefined: none
 * counted).
 */
export type SliceMetrics = {
  readonly endpointsAddedPerSync: readonly number[];
  readonly endpointsRemovedPerSync: readonly number[];
  readonly changes: { readonly create: number; readonly update: number; readonly delete: number };
  readonly slicesChangedPerSync: readonly ChangedPerSync[];
  readonly servicePortCaches: readonly ServicePortCache[];
  readonly trafficDistribution: string | undefined;
};

/** NO_METRICS is a sync that observed nothing. */
export const NO_METRICS: SliceMetrics = {
  endpointsAddedPerSync: [],
  endpointsRemovedPerSync: [],
  changes: { create: 0, update: 0, delete: 0 },
  slicesChangedPerSync: [],
  servicePortCaches: [],
  trafficDistribution: undefined,
};

/** mergeMetrics adds two syncs' (or two address types') observations; the later trafficDistribution wins. */
export function mergeMetrics(a: SliceMetrics, b: SliceMetrics): SliceMetrics {
  return {
    endpointsAddedPerSync: [...a.endpointsAddedPerSync, ...b.endpointsAddedPerSync],
    endpointsRemovedPerSync: [...a.endpointsRemovedPerSync, ...b.endpointsRemovedPerSync],
    changes: {
      create: a.changes.create + b.changes.create,
      update: a.changes.update + b.changes.update,
      delete: a.changes.delete + b.changes.delete,
    },
    slicesChangedPerSync: [...a.slicesChangedPerSync, ...b.slicesChangedPerSync],
    servicePortCaches: [...a.servicePortCaches, ...b.servicePortCaches],
    trafficDistribution: b.trafficDistribution ?? a.trafficDistribution,
  };
}

/** ServicePortTotals are a cache's actual slices, desired slices and endpoints. */
export type ServicePortTotals = {
  readonly actualSlices: number;
  readonly desiredSlices: number;
  readonly endpoints: number;
};

/**
 * servicePortTotals mirrors ServicePortCache.totals: actual slices, desired slices (with perfect packing, at least
 * the placeholder) and endpoints of a cache: what the num_endpoint_slices, desired_endpoint_slices and
 * endpoints_desired gauges sum over Services.
 */
export function servicePortTotals(cache: ServicePortCache, maxEndpointsPerSlice: number): ServicePortTotals {
  let [actualSlices, desiredSlices, endpoints] = [0, 0, 0];
  for (const info of cache.items.values()) {
    endpoints += info.endpoints;
    actualSlices += info.slices;
    desiredSlices += info.endpoints === 0 ? 0 : Math.ceil(info.endpoints / maxEndpointsPerSlice);
  }
  return { actualSlices, desiredSlices: Math.max(desiredSlices, 1), endpoints };
}
