import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { beatWhile, type BeatOptions } from './beat-while.ts';

/**
 * batch starts a batch's work under beatWhile on mocked timers (a heartbeat interval of 2 s unless o says else):
 * the work ends when told to, and each heartbeat is counted, then fails if `fails`.
 */
function batch<T>(t: TestContext, o: Partial<BeatOptions> & { fails?: boolean } = {}) {
  t.mock.timers.enable({ apis: ['setInterval', 'Date'] });
  const work = Promise.withResolvers<T>();
  const b = { beats: 0, work, done: Promise.resolve() as Promise<T>, tick: (ms: number) => t.mock.timers.tick(ms) };
  const heartbeat = async () => {
    b.beats++;
    if (o.fails) throw Object.assign(new Error('The group is rebalancing'), { type: 'REBALANCE_IN_PROGRESS' });
  };
  b.done = beatWhile(heartbeat, { intervalMs: 2000, ...o }, () => work.promise);
  return b;
}

describe('beatWhile', () => {
  it('given work longer than the session, then the member heartbeats every half interval until it ends', async (t) => {
    const b = batch<string>(t);
    b.tick(9000);
    assert.equal(b.beats, 9, 'a publish waiting 9 s for a fenced leader keeps its member in a 6 s session');
    b.work.resolve('batch done');
    assert.equal(await b.done, 'batch done');
    b.tick(5000);
    assert.equal(b.beats, 9, 'no heartbeat after the batch');
  });

  it('given a heartbeat that fails (a rebalance), then the work goes on and its result is returned', async (t) => {
    const b = batch<number>(t, { fails: true });
    b.tick(3000);
    b.work.resolve(7);
    assert.equal(await b.done, 7);
    assert.equal(b.beats, 3);
  });

  it('given work stuck past maxMs, then heartbeats stop (the member leaves, as past max.poll.interval.ms)', async (t) => {
    const b = batch<void>(t, { maxMs: 10_000 });
    for (let s = 0; s < 30; s++) b.tick(1000);
    assert.equal(b.beats, 10);
    b.work.resolve();
    await b.done;
  });

  it('given work that fails, then its failure is thrown and the heartbeats stop', async (t) => {
    const b = batch<void>(t);
    b.work.reject(new Error('handler failed'));
    await assert.rejects(b.done, /handler failed/);
    b.tick(10_000);
    assert.equal(b.beats, 0);
  });
});
