/**
 * TaintEvictionMetrics are upstream's taint_eviction_controller_* series (tainteviction/metrics/metrics.go) as calls;
 * the prom-client implementation is metrics.prom.ts.
 */
export interface TaintEvictionMetrics {
  /**
   * podDeleted: pod_deletions_total += 1 and pod_deletion_duration_seconds observes the seconds from when the eviction
   * was due (the taint effect active for the pod) to its delete, counted when the delete is published (upstream counts
   * it once the call returned; here the writer answers later).
   */
  podDeleted(latencySeconds: number): void;
}

/** NOOP_TAINT_EVICTION_METRICS records nothing (tests). */
export const NOOP_TAINT_EVICTION_METRICS: TaintEvictionMetrics = { podDeleted: () => {} };
