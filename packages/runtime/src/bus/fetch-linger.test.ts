import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FetchLinger } from './fetch-linger.ts';

/** manualSleep records each wait asked for and ends it only when told. */
function manualSleep(): { sleep: (ms: number) => Promise<void>; asked: number[]; end: () => void } {
  const asked: number[] = [];
  let ends: (() => void)[] = [];
  return {
    sleep: (ms) => {
      asked.push(ms);
      return new Promise((resolve) => ends.push(resolve));
    },
    asked,
    end: () => {
      for (const end of ends) end();
      ends = [];
    },
  };
}

const settled = async (p: Promise<void>): Promise<boolean> => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('FetchLinger', () => {
  it('given the batches of one fetch, then they all wait for one linger, and the next fetch starts another', async () => {
    const clock = manualSleep();
    const linger = new FetchLinger(200, clock.sleep);
    const first = [linger.afterBatch(), linger.afterBatch(), linger.afterBatch()];
    assert.deepEqual(clock.asked, [200], 'one wait for the three batches');
    assert.equal(await settled(Promise.all(first).then(() => undefined)), false, 'held until the wait ends');
    clock.end();
    await Promise.all(first);
    const next = linger.afterBatch();
    assert.deepEqual(clock.asked, [200, 200], 'a batch of the next fetch starts a new wait');
    clock.end();
    await next;
  });

  it('given no linger, then a batch never waits', async () => {
    const clock = manualSleep();
    const linger = new FetchLinger(0, clock.sleep);
    assert.equal(await settled(linger.afterBatch()), true);
    assert.deepEqual(clock.asked, []);
  });
});
