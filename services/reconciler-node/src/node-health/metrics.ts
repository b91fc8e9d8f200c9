import type { Logger } from '@kcm-bus/runtime/service/index.ts';

/**
 * NodeCollectorMetrics are the node_collector_* series of upstream's nodelifecycle/metrics.go as calls, plus the
 * stale-input signal kcm-bus adds; the prom-client implementation is metrics.prom.ts.
 */
export interface NodeCollectorMetrics {
  /** zoneSize: node_collector_zone_size{zone}, the nodes of the zone counted for disruption. */
  zoneSize(zone: string, nodes: number): void;
  /** zoneHealth: node_collector_zone_health{zone}, the percentage of Ready nodes. */
  zoneHealth(zone: string, percent: number): void;
  /** unhealthyNodes: node_collector_unhealthy_nodes_in_zone{zone}. */
  unhealthyNodes(zone: string, nodes: number): void;
  /** evictionsTotal: node_collector_evictions_total{zone} += by (0 initialises a new zone's series). */
  evictionsTotal(zone: string, by: number): void;
  /** updateNodeHealthDuration: node_collector_update_node_health_duration_seconds, one node's health update. */
  updateNodeHealthDuration(seconds: number): void;
  /** updateAllNodesHealthDuration: node_collector_update_all_nodes_health_duration_seconds, one monitor pass. */
  updateAllNodesHealthDuration(seconds: number): void;
  /**
   * inputsStale (not upstream) says whether the last monitor pass found the nodes or leases input stale (`reason`
   * says which and how old) and therefore judged nothing; the active member turns it into a gauge and a log line.
   */
  inputsStale(stale: boolean, reason: string): void;
  /**
   * nodeSilent (not upstream's metrics: its "Node hasn't been updated" log line) tells that the monitor pass marks a
   * node Unknown, with the evidence: its last sign of life and how far its heartbeat is known complete (pipeline time),
   * and the Lease renewal the member holds.
   */
  nodeSilent(node: string, evidence: NodeSilence): void;
}

/** NodeSilence is the evidence a node is marked Unknown on, times in RFC 3339. */
export type NodeSilence = {
  readonly lastSignOfLife: string;
  readonly heartbeatWatermark: string;
  readonly leaseRenewTime: string | undefined;
};

/** NOOP_NODE_COLLECTOR_METRICS records nothing (tests, and members that do not export metrics). */
export const NOOP_NODE_COLLECTOR_METRICS: NodeCollectorMetrics = {
  zoneSize: () => {},
  zoneHealth: () => {},
  unhealthyNodes: () => {},
  evictionsTotal: () => {},
  updateNodeHealthDuration: () => {},
  updateAllNodesHealthDuration: () => {},
  inputsStale: () => {},
  nodeSilent: () => {},
};

/**
 * withStalenessLog tells the operator when the monitor pass starts and stops judging nothing: a warning with the
 * reason when its inputs go stale, a line when they are fresh again (every node then gets a new grace period); and
 * each node it marks Unknown, with the evidence.
 */
export function withStalenessLog(
  metrics: NodeCollectorMetrics,
  log: Pick<Logger, 'warn' | 'info'>,
): NodeCollectorMetrics {
  let wasStale = false;
  return {
    ...metrics,
    nodeSilent: (node, evidence) =>
      log.info('node silent past its grace period: marked Unknown', { node, ...evidence }),
    inputsStale: (stale, reason) => {
      if (stale && !wasStale)
        log.warn('node lifecycle inputs are stale: judging no node until they catch up', { reason });
      if (!stale && wasStale) log.info('node lifecycle inputs fresh again: every node gets a new grace period');
      wasStale = stale;
      metrics.inputsStale(stale, reason);
    },
  };
}
