import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { NodeCollectorMetrics } from './metrics.ts';

/** exponentialBuckets mirrors metrics.ExponentialBuckets(start, factor, count). */
function exponentialBuckets(start: number, factor: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start * factor ** i);
}

/**
 * promNodeCollectorMetrics registers upstream's node_collector_* series (names, help and buckets of
 * nodelifecycle/metrics.go) and kcm_bus_node_lifecycle_inputs_stale (1 while the last monitor pass found its
 * inputs stale) on `registry`.
 */
export function promNodeCollectorMetrics(registry: Registry): NodeCollectorMetrics {
  const registers = [registry];
  const zone = ['zone'];
  const health = new Gauge({
    name: 'node_collector_zone_health',
    help: 'Gauge measuring percentage of healthy nodes per zone.',
    labelNames: zone,
    registers,
  });
  const size = new Gauge({
    name: 'node_collector_zone_size',
    help: 'Gauge measuring number of registered Nodes per zones.',
    labelNames: zone,
    registers,
  });
  const unhealthy = new Gauge({
    name: 'node_collector_unhealthy_nodes_in_zone',
    help: 'Gauge measuring number of not Ready Nodes per zones.',
    labelNames: zone,
    registers,
  });
  const evictions = new Counter({
    name: 'node_collector_evictions_total',
    help: 'Number of Node evictions that happened since current instance of NodeController started.',
    labelNames: zone,
    registers,
  });
  const nodeDuration = new Histogram({
    name: 'node_collector_update_node_health_duration_seconds',
    help: 'Duration in seconds for NodeController to update the health of a single node.',
    buckets: exponentialBuckets(0.001, 4, 8),
    registers,
  });
  const allDuration = new Histogram({
    name: 'node_collector_update_all_nodes_health_duration_seconds',
    help: 'Duration in seconds for NodeController to update the health of all nodes.',
    buckets: exponentialBuckets(0.01, 4, 8),
    registers,
  });
  const stale = new Gauge({
    name: 'kcm_bus_node_lifecycle_inputs_stale',
    help: '1 while the node lifecycle monitor pass finds its nodes or leases input stale and judges nothing (0 before the first pass and on a member that is not the active one).',
    registers,
  });
  return {
    zoneSize: (z, n) => size.set({ zone: z }, n),
    zoneHealth: (z, p) => health.set({ zone: z }, p),
    unhealthyNodes: (z, n) => unhealthy.set({ zone: z }, n),
    evictionsTotal: (z, by) => evictions.inc({ zone: z }, by),
    updateNodeHealthDuration: (s) => nodeDuration.observe(s),
    updateAllNodesHealthDuration: (s) => allDuration.observe(s),
    inputsStale: (isStale) => stale.set(isStale ? 1 : 0),
    nodeSilent: () => undefined,
  };
}
