import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RECONCILER_SERVICES } from '@kcm-bus/catalog/controllers.ts';
import { dashboardPanels, exportedSeries, seriesNames } from '../support/dashboard.ts';

describe('deploy/grafana/kcm-bus.json', () => {
  const panels = dashboardPanels();

  it('parses, and every panel has the ${DS_PROMETHEUS} datasource and at least one PromQL expression', () => {
    const graphs = panels.filter((p) => p.type !== 'row');
    assert.ok(graphs.length > 10);
    for (const p of graphs) {
      assert.equal(p.datasource?.uid, '${DS_PROMETHEUS}', p.title);
      assert.ok(
        (p.targets ?? []).length > 0 &&
          p.targets!.every((t) => (t.expr ?? '').trim() !== '' && t.datasource?.uid === '${DS_PROMETHEUS}'),
        p.title,
      );
    }
  });

  it('has a row per service', () => {
    const rows = panels.filter((p) => p.type === 'row').map((p) => p.title);
    for (const service of ['watcher', 'writer', ...RECONCILER_SERVICES]) assert.ok(rows.includes(service), service);
  });
});

describe('seriesNames and exportedSeries (how the dashboard test matches expressions to /metrics)', () => {
  it('finds the series of an expression, not its functions, labels, strings or ranges', () => {
    assert.deepEqual(
      seriesNames(
        'histogram_quantile(0.99, sum by (le, name) (rate(workqueue_work_duration_seconds_bucket{name=~"a|b"}[5m])))',
      ),
      ['workqueue_work_duration_seconds_bucket'],
    );
    assert.deepEqual(
      seriesNames('max (kcm_bus_node_lifecycle_inputs_stale) + on (zone) group_left node_collector_zone_size'),
      ['kcm_bus_node_lifecycle_inputs_stale', 'node_collector_zone_size'],
    );
  });

  it('exposes a histogram as its buckets, sum and count, and a counter under its own name', () => {
    const text =
      '# HELP a_seconds x\n# TYPE a_seconds histogram\n# HELP b_total y\n# TYPE b_total counter\nb_total 3\n';
    assert.deepEqual([...exportedSeries(text)].sort(), [
      'a_seconds_bucket',
      'a_seconds_count',
      'a_seconds_sum',
      'b_total',
    ]);
  });
});
