import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import type { ControllerHooks } from './controller-types.ts';
import { ControllerMetrics } from './metrics.prom.ts';

const hooks = (error?: string): ControllerHooks => ({
  name: 'replicationcontroller-controller',
  onEvent: () => ({ enqueue: [] }),
  reconcile: () => ({ mutations: [], ...(error === undefined ? {} : { error }) }),
});

const input = {
  expectations: { satisfied: true, pendingCreates: [], pendingDeletes: [] },
  failures: [],
  now: new Date(),
  cause: [],
  attempt: 0,
  fresh: true,
};

async function value(
  registry: Registry,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): Promise<number | undefined> {
  const metric = await registry.getSingleMetric(name)?.get();
  return metric?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value;
}

describe('ControllerMetrics', () => {
  it("counts reconciles, their errors and their time under controller-runtime's names", async () => {
    const registry = new Registry();
    const metrics = new ControllerMetrics(registry);
    const probes = { cached: () => ({}), partitionsSynced: () => [], inputWatermarks: () => ({}) };
    const failing = metrics.counted('replicationcontroller-controller', hooks('FailedCreate'), probes);
    failing.reconcile('ns/a', input);
    failing.reconcile('ns/a', input);
    metrics.counted('endpoints-controller', hooks(), probes).reconcile('ns/b', input);
    assert.equal(
      await value(registry, 'controller_runtime_reconcile_total', { controller: 'replicationcontroller-controller' }),
      2,
    );
    assert.equal(
      await value(registry, 'controller_runtime_reconcile_errors_total', {
        controller: 'replicationcontroller-controller',
      }),
      2,
    );
    assert.equal(
      await value(registry, 'controller_runtime_reconcile_errors_total', { controller: 'endpoints-controller' }),
      undefined,
    );
    const count = (await registry.getSingleMetric('controller_runtime_reconcile_time_seconds')?.get())?.values.find(
      (v) =>
        (v as { metricName?: string }).metricName === 'controller_runtime_reconcile_time_seconds_count' &&
        v.labels['controller'] === 'endpoints-controller',
    )?.value;
    assert.equal(count, 1);
  });

  it('counts the objects a write found gone that a store dropped, by kind; a store that held none counts nothing', async () => {
    const registry = new Registry();
    const metrics = new ControllerMetrics(registry);
    const probes = { cached: () => ({}), partitionsSynced: () => [], inputWatermarks: () => ({}) };
    const held = new Set(['ns/a']);
    const evicting: ControllerHooks = {
      ...hooks(),
      evict: (gone) => (held.delete(gone.key) ? { enqueue: ['ns/owner'] } : undefined),
    };
    const counted = metrics.counted('replicationcontroller-controller', evicting, probes);
    const gone = { resource: 'pods', key: 'ns/a', uid: 'u' };
    assert.deepEqual(counted.evict?.(gone), { enqueue: ['ns/owner'] });
    assert.equal(counted.evict?.(gone), undefined);
    assert.equal(
      await value(registry, 'kcm_bus_store_evictions_total', {
        controller: 'replicationcontroller-controller',
        kind: 'pods',
      }),
      1,
    );
  });

  it("gives each input topic's watermark age at scrape time, and none for an input without a watermark yet", async () => {
    const registry = new Registry();
    const metrics = new ControllerMetrics(registry);
    const observedAt = { 'kcm.state.pods': new Date(Date.now() - 3000), 'kcm.state.replicationcontrollers': undefined };
    metrics.counted('replicationcontroller-controller', hooks(), {
      cached: () => ({}),
      partitionsSynced: () => [],
      inputWatermarks: () => observedAt,
    });
    const age = await value(registry, 'kcm_bus_input_watermark_age_seconds', { topic: 'kcm.state.pods' });
    assert.ok(age !== undefined && age >= 3 && age < 10, `age ${age}`);
    assert.equal(
      await value(registry, 'kcm_bus_input_watermark_age_seconds', { topic: 'kcm.state.replicationcontrollers' }),
      undefined,
    );
  });
});
