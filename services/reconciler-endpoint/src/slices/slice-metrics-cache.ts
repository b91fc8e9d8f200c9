import { type ServicePortCache, servicePortTotals, type SliceMetrics } from './slice-metrics.ts';

/** SliceGauges are the cluster-wide gauges of endpoint_slice_controller: endpoints, actual and desired slices, Services by trafficDistribution. */
export type SliceGauges = {
  readonly endpointsDesired: number;
  readonly numEndpointSlices: number;
  readonly desiredEndpointSlices: number;
  readonly servicesByTrafficDistribution: ReadonlyMap<string, number>;
};

/**
 * SliceMetricsCache mirrors k8s.io/endpointslice/metrics.Cache: each Service's last ServicePortCache and
 * trafficDistribution, summed into the gauges. A member keeps the Services it syncs (its partitions'), so the gauges
 * of a member are its share, as a consumer group's members export theirs.
 */
export class SliceMetricsCache {
  readonly #ports = new Map<string, ServicePortCache>();
  readonly #traffic = new Map<string, string>();
  readonly #maxEndpointsPerSlice: number;

  constructor(maxEndpointsPerSlice: number) {
    this.#maxEndpointsPerSlice = maxEndpointsPerSlice;
  }

  /**
   * observed takes one sync's metrics for the Service (UpdateServicePortCache with the address type it visited last,
   * UpdateTrafficDistributionForService), or forgets a deleted Service (DeleteService).
   */
  observed(key: string, metrics: SliceMetrics, serviceDeleted: boolean): void {
    if (serviceDeleted) {
      this.#ports.delete(key);
      this.#traffic.delete(key);
      return;
    }
    const last = metrics.servicePortCaches.at(-1);
    if (last !== undefined) this.#ports.set(key, last);
    if (metrics.trafficDistribution === undefined) this.#traffic.delete(key);
    else this.#traffic.set(key, metrics.trafficDistribution);
  }

  /** gauges are the cache's sums (updateMetrics). */
  gauges(): SliceGauges {
    let [endpointsDesired, numEndpointSlices, desiredEndpointSlices] = [0, 0, 0];
    for (const cache of this.#ports.values()) {
      const t = servicePortTotals(cache, this.#maxEndpointsPerSlice);
      endpointsDesired += t.endpoints;
      numEndpointSlices += t.actualSlices;
      desiredEndpointSlices += t.desiredSlices;
    }
    const servicesByTrafficDistribution = new Map<string, number>();
    for (const value of this.#traffic.values())
      servicesByTrafficDistribution.set(value, (servicesByTrafficDistribution.get(value) ?? 0) + 1);
    return { endpointsDesired, numEndpointSlices, desiredEndpointSlices, servicesByTrafficDistribution };
  }
}
