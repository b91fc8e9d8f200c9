import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { beatWhile } from './beat-while.ts';

/** work is a batch's work that ends when told to, with its result or failure. */
function work<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  return Promise.withResolvers<T>();
}

describe('beatWhile', () => {
  it('given work longer than the session, then the member heartbeats every half interval until it ends', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval', 'Date'] });
    let beats = 0;
    const w = work<string>();
    const done = beatWhile(
      async () => void beats++,
      { intervalMs: 2000 },
      () => w.promise,
    );
    t.mock.timers.tick(9000);
    assert.equal(beats, 9, 'a publish waiting 9 s for a fenced leader keeps its member in a 6 s session');
    w.resolve('batch done');
    assert.equal(await done, 'batch done');
    t.mock.timers.tick(5000);
    assert.equal(beats, 9, 'no heartbeat after the batch');
  });

  it('given a heartbeat that fails (a rebalance), then the work goes on and its result is returned', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval', 'Date'] });
    let beats = 0;
    const w = work<number>();
    const rebalancing = async () => {
      beats++;
      throw Object.assign(new Error('The group is rebalancing'), { type: 'REBALANCE_IN_PROGRESS' });
    };
    const done = beatWhile(rebalancing, { intervalMs: 2000 }, () => w.promise);
    t.mock.timers.tick(3000);
    w.resolve(7);
    assert.equal(await done, 7);
    assert.equal(beats, 3);
  });

  it('given work stuck past maxMs, then heartbeats stop (the member leaves, as past max.poll.interval.ms)', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval', 'Date'] });
    let beats = 0;
    const w = work<void>();
    const done = beatWhile(
      async () => void beats++,
      { intervalMs: 2000, maxMs: 10_000 },
      () => w.promise,
    );
    for (let s = 0; s < 30; s++) t.mock.timers.tick(1000);
    assert.equal(beats, 10);
    w.resolve();
    await done;
  });

  it('given work that fails, then its failure is thrown and the heartbeats stop', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval', 'Date'] });
    let beats = 0;
    const w = work<void>();
    const done = beatWhile(
      async () => void beats++,
      { intervalMs: 2000 },
      () => w.promise,
    );
    w.reject(new Error('handler failed'));
    await assert.rejects(done, /handler failed/);
    t.mock.timers.tick(10_000);
    assert.equal(beats, 0);
  });
});
