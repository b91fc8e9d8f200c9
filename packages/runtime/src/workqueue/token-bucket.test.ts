import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from './fake-clock.ts';
import { TokenBucket } from './token-bucket.ts';

describe('TokenBucket.tryTake', () => {
  it('given a burst of 2 at 1 per second, then two takes pass, the third is refused without debt, and a second later one passes again', () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket(1, 2, clock);
    assert.deepEqual([bucket.tryTake(), bucket.tryTake(), bucket.tryTake(), bucket.tryTake()], [true, true, false, false]);
    clock.advance(1000);
    assert.equal(bucket.tryTake(), true, 'refusals took nothing: one token refilled');
    assert.equal(bucket.tryTake(), false);
  });
});
