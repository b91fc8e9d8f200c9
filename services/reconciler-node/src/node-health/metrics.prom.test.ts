import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { promNodeCollectorMetrics } from './metrics.prom.ts';

describe('promNodeCollectorMetrics', () => {
  it("given calls, then upstream's node_collector_* series and the stale gauge show them", async () => {
    const registry = new Registry();
    const m = promNodeCollectorMetrics(registry);
    m.zoneSize('r:\x00:z', 3);
    m.zoneHealth('r:\x00:z', 66.7);
    m.unhealthyNodes('r:\x00:z', 1);
    m.evictionsTotal('r:\x00:z', 1);
    m.updateNodeHealthDuration(0.002);
    m.updateAllNodesHealthDuration(0.02);
    m.inputsStale(true, 'nodes input stale');
    const text = await registry.metrics();
    for (const series of [
      'node_collector_zone_size{zone="r:\x00:z"} 3',
      'node_collector_evictions_total{zone="r:\x00:z"} 1',
      'node_collector_unhealthy_nodes_in_zone',
      'node_collector_zone_health',
      'node_collector_update_node_health_duration_seconds_bucket{le="0.004"} 1',
      'node_collector_update_all_nodes_health_duration_seconds_count 1',
      'kcm_bus_node_lifecycle_inputs_stale 1',
    ]) {
      assert.ok(text.includes(series), series);
    }
  });
});
