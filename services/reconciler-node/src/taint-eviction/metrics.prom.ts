import { Counter, Histogram, type Registry } from 'prom-client';
import type { TaintEvictionMetrics } from './metrics.ts';

/** promTaintEvictionMetrics registers upstream's two taint eviction series (names, help and buckets of metrics.go) on `registry`. */
export function promTaintEvictionMetrics(registry: Registry): TaintEvictionMetrics {
  const registers = [registry];
  const deletions = new Counter({
    name: 'taint_eviction_controller_pod_deletions_total',
    help: 'Total number of Pods deleted by TaintEvictionController since its start.',
    registers,
  });
  const latency = new Histogram({
    name: 'taint_eviction_controller_pod_deletion_duration_seconds',
    help: 'Latency, in seconds, between the time when a taint effect has been activated for the Pod and its deletion via TaintEvictionController.',
    buckets: [0.005, 0.025, 0.1, 0.5, 1, 2.5, 10, 30, 60, 120, 180, 240],
    registers,
  });
  return {
    podDeleted: (seconds) => {
      deletions.inc();
      latency.observe(seconds);
    },
  };
}
