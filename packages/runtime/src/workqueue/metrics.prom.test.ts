import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { FakeClock } from './fake-clock.ts';
import { settled } from './promise-state.ts';
import { PromWorkqueueMetricsProvider, WORKQUEUE_DURATION_BUCKETS } from './metrics.prom.ts';
import { Workqueue } from './workqueue.ts';

/** given is a registry fed by one queue named "replicaset" on a fake clock. */
function given() {
  const registry = new Registry();
  const clock = new FakeClock();
  const metricsProvider = new PromWorkqueueMetricsProvider(registry);
  const queue = new Workqueue({ name: 'replicaset', clock, scheduler: clock, metricsProvider });
  return { registry, clock, queue };
}

describe('PromWorkqueueMetricsProvider', () => {
  it('given a queue, then all seven client-go workqueue series are registered', async () => {
    const { registry } = given();
    const names = (await registry.getMetricsAsJSON()).map((m) => m.name).sort();
    assert.deepEqual(names, [
      'workqueue_adds_total',
      'workqueue_depth',
      'workqueue_longest_running_processor_seconds',
      'workqueue_queue_duration_seconds',
      'workqueue_retries_total',
      'workqueue_unfinished_work_seconds',
      'workqueue_work_duration_seconds',
    ]);
  });

  it('given adds and a retry, then the series carry the queue name', async () => {
    const { registry, queue } = given();
    queue.add('a');
    queue.add('b');
    queue.addAfter('c', 10);
    const text = await registry.metrics();
    assert.match(text, /^workqueue_depth\{name="replicaset"\} 2$/m);
    assert.match(text, /^workqueue_adds_total\{name="replicaset"\} 2$/m);
    assert.match(text, /^workqueue_retries_total\{name="replicaset"\} 1$/m);
  });

  it('given a key processed for 1.5 s, then the work duration histogram counts it under le="10"', async () => {
    const { registry, clock, queue } = given();
    queue.add('a');
    await settled(queue.get());
    clock.advance(1500);
    queue.done('a');
    const text = await registry.getSingleMetricAsString('workqueue_work_duration_seconds');
    assert.match(text, /^workqueue_work_duration_seconds_bucket\{le="1",name="replicaset"\} 0$/m);
    assert.match(text, /^workqueue_work_duration_seconds_bucket\{le="10",name="replicaset"\} 1$/m);
    assert.match(text, /^workqueue_work_duration_seconds_sum\{name="replicaset"\} 1.5$/m);
  });

  it('given client-go buckets, then there are 12 from 10 ns growing tenfold', () => {
    assert.equal(WORKQUEUE_DURATION_BUCKETS.length, 12);
    assert.ok(Math.abs(WORKQUEUE_DURATION_BUCKETS[0]! - 1e-8) < 1e-20);
    assert.ok(Math.abs(WORKQUEUE_DURATION_BUCKETS[11]! - 1000) < 1e-9);
  });
});
