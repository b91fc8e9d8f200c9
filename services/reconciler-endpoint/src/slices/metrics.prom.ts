import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { SliceMetricsCache } from './slice-metrics-cache.ts';
import type { SliceMetrics } from './slice-metrics.ts';

/** SliceMetricsSink takes each sync's observations (what the spec reports) into the endpoint_slice_controller_* series. */
export type SliceMetricsSink = {
  readonly synced: (
    key: string,
    outcome: { readonly metrics: SliceMetrics; readonly serviceDeleted: boolean; readonly error: boolean },
  ) => void;
};

const exponential = (start: number, factor: number, count: number): number[] =>
  Array.from({ length: count }, (_, i) => start * factor ** i);

/**
 * promSliceMetrics registers upstream's endpoint_slice_controller_* series (k8s.io/endpointslice/metrics: names,
 * help, labels and buckets) on `registry` and returns the sink the spec feeds; syncs{result} counts success and error
 * (upstream's "stale" comes from its EndpointSliceTracker, which the runtime's read-your-writes replaces).
 */
export function promSliceMetrics(registry: Registry, maxEndpointsPerSlice: number): SliceMetricsSink {
  const registers = [registry];
  const name = (n: string): string => `endpoint_slice_controller_${n}`;
  const added = new Histogram({
    name: name('endpoints_added_per_sync'),
    help: 'Number of endpoints added on each Service sync',
    buckets: exponential(2, 2, 15),
    registers,
  });
  const removed = new Histogram({
    name: name('endpoints_removed_per_sync'),
    help: 'Number of endpoints removed on each Service sync',
    buckets: exponential(2, 2, 15),
    registers,
  });
  const desired = new Gauge({ name: name('endpoints_desired'), help: 'Number of endpoints desired', registers });
  const actualSlices = new Gauge({ name: name('num_endpoint_slices'), help: 'Number of EndpointSlices', registers });
  const desiredSlices = new Gauge({
    name: name('desired_endpoint_slices'),
    help: 'Number of EndpointSlices that would exist with perfect endpoint allocation',
    registers,
  });
  const changes = new Counter({
    name: name('changes'),
    help: 'Number of EndpointSlice changes',
    labelNames: ['operation'],
    registers,
  });
  const changed = new Histogram({
    name: name('endpointslices_changed_per_sync'),
    help: 'Number of EndpointSlices changed on each Service sync',
    labelNames: ['topology', 'traffic_distribution'],
    registers,
  });
  const syncs = new Counter({
    name: name('syncs'),
    help: 'Number of EndpointSlice syncs',
    labelNames: ['result'],
    registers,
  });
  const byTraffic = new Gauge({
    name: name('services_count_by_traffic_distribution'),
    help: 'Number of Services using some specific trafficDistribution',
    labelNames: ['traffic_distribution'],
    registers,
  });
  const cache = new SliceMetricsCache(maxEndpointsPerSlice);
  return {
    synced: (key, { metrics, serviceDeleted, error }) => {
      for (const n of metrics.endpointsAddedPerSync) added.observe(n);
      for (const n of metrics.endpointsRemovedPerSync) removed.observe(n);
      for (const [operation, n] of Object.entries(metrics.changes)) if (n > 0) changes.inc({ operation }, n);
      for (const c of metrics.slicesChangedPerSync)
        changed.observe({ topology: c.topology, traffic_distribution: c.trafficDistribution }, c.slices);
      syncs.inc({ result: error ? 'error' : 'success' });
      cache.observed(key, metrics, serviceDeleted);
      const g = cache.gauges();
      [desired, actualSlices, desiredSlices].forEach((gauge, i) =>
        gauge.set([g.endpointsDesired, g.numEndpointSlices, g.desiredEndpointSlices][i]!),
      );
      byTraffic.reset();
      for (const [value, count] of g.servicesByTrafficDistribution)
        byTraffic.set({ traffic_distribution: value }, count);
    },
  };
}
