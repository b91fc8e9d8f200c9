import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { WatchRecord } from '@kcm-bus/schemas/watch-record.ts';
import type { KubeObject } from './events.ts';
import { Pump } from './pump.ts';

function applied(rv: string): WatchRecord<KubeObject> {
  return { type: 'Applied', key: `ns/p${rv}`, resourceVersion: rv, observedAt: '', object: { metadata: { name: `p${rv}`, namespace: 'ns', resourceVersion: rv } } };
}

describe('Pump', () => {
  it('given a publication in flight, when more records arrive, then they go out together in the next batch, in order', async () => {
    const batches: string[][] = [];
    let release: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (release = resolve));
    const pump = new Pump(async (events) => {
      batches.push(events.map((e) => e.resourceVersion));
      if (batches.length === 1) await first;
    }, { maxBatch: 100, highWater: 1000 }, (err) => assert.fail(String(err)));
    await pump.push([applied('1')]);
    await pump.push([applied('2')]);
    await pump.push([applied('3'), { type: 'Progress', resourceVersion: '4' }]);
    release();
    await pump.flush();
    assert.deepEqual(batches, [['1'], ['2', '3']]);
    assert.equal(pump.reached, '4');
  });

  it('given a batch of progress only (nothing to publish), then the next records are still published', async () => {
    const published: string[] = [];
    const pump = new Pump(async (events) => void published.push(...events.map((e) => e.resourceVersion)),
      { maxBatch: 10, highWater: 10 }, (err) => assert.fail(String(err)));
    await pump.push([{ type: 'Progress', resourceVersion: '7' }]);
    await pump.flush();
    await pump.push([applied('8')]);
    await pump.flush();
    assert.deepEqual(published, ['8']);
    assert.equal(pump.reached, '8');
  });

  it('given a failing publication, then the failure is fatal and later pushes are refused', async () => {
    const failures: unknown[] = [];
    const pump = new Pump(async () => Promise.reject(new Error('fenced')), { maxBatch: 10, highWater: 10 }, (err) => failures.push(err));
    await pump.push([applied('1')]);
    await pump.flush();
    assert.equal(failures.length, 1);
    assert.equal(pump.reached, undefined, 'nothing was published');
    await assert.rejects(pump.push([applied('2')]), /stopped/);
  });

  it('given a queue over the high-water mark, then push waits until the publisher catches up', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const pump = new Pump(async () => gate, { maxBatch: 1, highWater: 2 }, (err) => assert.fail(String(err)));
    let done = false;
    for (const rv of ['1', '2', '3']) await pump.push([applied(rv)]);
    const pushing = pump.push([applied('4')]).then(() => (done = true));
    await Promise.resolve();
    assert.equal(done, false, 'three records wait behind the one in flight: over the high-water mark of 2');
    release();
    await pushing;
    await pump.flush();
    assert.equal(pump.reached, '4');
  });

  it('given a relist larger than a batch, then it is published whole in one transaction, never split where a crash could land', async () => {
    const batches: string[][] = [];
    const pump = new Pump(async (events) => void batches.push(events.map((e) => e.resourceVersion)), { maxBatch: 2, highWater: 100 }, (err) => assert.fail(String(err)));
    await pump.push([applied('1'), applied('2'), applied('3'), { type: 'Progress', resourceVersion: '9' }]);
    await pump.push([applied('10')]);
    await pump.flush();
    assert.deepEqual(batches[0], ['1', '2', '3']);
    assert.equal(pump.reached, '10', 'a push right after a drain ended is published too');
  });
});
