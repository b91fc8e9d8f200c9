import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from './fake-clock.ts';
import { settled } from './promise-state.ts';
import type { WorkqueueMetricsProvider } from './metrics.ts';
import { Workqueue } from './workqueue.ts';

type Recorded = {
  depth: number;
  adds: number;
  retries: number;
  latency: number[];
  workDuration: number[];
  unfinishedWork: number;
  longestRunning: number;
  names: Set<string>;
};

/** recordingProvider keeps the last value of every instrument, and the queue names it was asked for. */
function recordingProvider(): { readonly provider: WorkqueueMetricsProvider; readonly recorded: Recorded } {
  const r: Recorded = {
    depth: 0,
    adds: 0,
    retries: 0,
    latency: [],
    workDuration: [],
    unfinishedWork: 0,
    longestRunning: 0,
    names: new Set(),
  };
  const named =
    <M>(metric: M) =>
    (name: string): M => (r.names.add(name), metric);
  const provider: WorkqueueMetricsProvider = {
    newDepthMetric: named({ inc: () => void r.depth++, dec: () => void r.depth-- }),
    newAddsMetric: named({ inc: () => void r.adds++ }),
    newLatencyMetric: named({ observe: (v: number) => void r.latency.push(v) }),
    newWorkDurationMetric: named({ observe: (v: number) => void r.workDuration.push(v) }),
    newUnfinishedWorkSecondsMetric: named({ set: (v: number) => void (r.unfinishedWork = v) }),
    newLongestRunningProcessorSecondsMetric: named({ set: (v: number) => void (r.longestRunning = v) }),
    newRetriesMetric: named({ inc: () => void r.retries++ }),
  };
  return { provider, recorded: r };
}

function given() {
  const clock = new FakeClock();
  const { provider, recorded } = recordingProvider();
  const queue = new Workqueue({ name: 'replicaset', clock, scheduler: clock, metricsProvider: provider });
  return { clock, queue, recorded };
}

describe('Workqueue metrics', () => {
  it('given a queue, then every instrument is created under its name', () => {
    const { recorded } = given();
    assert.deepEqual([...recorded.names], ['replicaset']);
  });

  it('given adds, then adds_total counts new keys and depth the queued ones', async () => {
    const { queue, recorded } = given();
    queue.add('a');
    queue.add('a');
    queue.add('b');
    assert.deepEqual([recorded.adds, recorded.depth], [2, 2]);
    await settled(queue.get());
    assert.equal(recorded.depth, 1);
  });

  it('given a key queued 2 s and worked on 3 s, then queue and work durations are observed in seconds', async () => {
    const { clock, queue, recorded } = given();
    queue.add('a');
    clock.advance(2000);
    await settled(queue.get());
    clock.advance(3000);
    queue.done('a');
    assert.deepEqual([recorded.latency, recorded.workDuration], [[2], [3]]);
  });

  it('given two keys in flight for 4 s and 1 s, when the 500 ms update runs, then unfinished work is 5 s and the longest 4 s', async () => {
    const { clock, queue, recorded } = given();
    queue.add('a');
    queue.add('b');
    await settled(queue.get());
    clock.advance(3000);
    await settled(queue.get());
    clock.advance(1000);
    assert.deepEqual([recorded.unfinishedWork, recorded.longestRunning], [5, 4]);
  });

  it('given delayed and rate-limited adds, then retries_total counts each', () => {
    const { queue, recorded } = given();
    queue.addAfter('a', 10);
    queue.addRateLimited('b');
    assert.equal(recorded.retries, 2);
  });

  it('given queued keys dropped by dropWhere, then depth goes back down', () => {
    const { queue, recorded } = given();
    queue.add('ns1/a');
    queue.add('ns2/b');
    queue.dropWhere((key) => key.startsWith('ns1/'));
    assert.equal(recorded.depth, 1);
  });

  it('given a shut down queue, then the unfinished-work updates stop', () => {
    const { clock, queue } = given();
    queue.shutDown();
    assert.equal(clock.pendingTimers(), 0);
  });
});
