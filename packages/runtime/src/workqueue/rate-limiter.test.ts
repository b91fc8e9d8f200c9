import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from './fake-clock.ts';
import {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  type RateLimiter,
  TokenBucket,
} from './rate-limiter.ts';

/** fixedRateLimiter always answers the same delay and counts the calls, like client-go's test doubles. */
function fixedRateLimiter(delayMs: number): RateLimiter & { readonly forgotten: string[] } {
  const calls = new Map<string, number>();
  const forgotten: string[] = [];
  return {
    forgotten,
    when: (item) => (calls.set(item, (calls.get(item) ?? 0) + 1), delayMs),
    forget: (item) => (forgotten.push(item), calls.delete(item)),
    numRequeues: (item) => calls.get(item) ?? 0,
  };
}

describe('ItemExponentialFailureRateLimiter', () => {
  it('given repeated failures of one item, then each waits base * 2^failures ms and is counted', () => {
    const limiter = new ItemExponentialFailureRateLimiter(1, 1000);
    assert.deepEqual([1, 2, 3, 4, 5].map(() => limiter.when('one')), [1, 2, 4, 8, 16]);
    assert.equal(limiter.numRequeues('one'), 5);
  });

  it('given two items, then each backs off independently', () => {
    const limiter = new ItemExponentialFailureRateLimiter(1, 1000);
    limiter.when('one');
    limiter.when('one');
    assert.equal(limiter.when('two'), 1);
    assert.equal(limiter.numRequeues('two'), 1);
  });

  it('given a forgotten item, when it fails again, then it starts over at the base delay', () => {
    const limiter = new ItemExponentialFailureRateLimiter(1, 1000);
    limiter.when('one');
    limiter.when('one');
    limiter.forget('one');
    assert.equal(limiter.numRequeues('one'), 0);
    assert.equal(limiter.when('one'), 1);
  });

  it('given very many failures, then the delay is capped at maxDelay and never overflows', () => {
    const limiter = new ItemExponentialFailureRateLimiter(5, 1_000_000);
    const delays = Array.from({ length: 2000 }, () => limiter.when('one'));
    assert.equal(delays[0], 5);
    assert.equal(delays[17], 5 * 2 ** 17);
    assert.equal(delays[18], 1_000_000);
    assert.equal(delays[1999], 1_000_000);
  });
});

describe('TokenBucket', () => {
  it('given a full bucket of 100 at 10 qps, then 100 reservations pass and the next wait 100 ms each in turn', () => {
    const bucket = new TokenBucket(10, 100, new FakeClock());
    const delays = Array.from({ length: 103 }, () => bucket.reserve());
    assert.deepEqual(delays.slice(0, 100), new Array(100).fill(0));
    assert.deepEqual(delays.slice(100), [100, 200, 300]);
  });

  it('given a bucket one token in debt, when half a token refills, then the next reservation waits 150 ms', () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket(10, 1, clock);
    bucket.reserve();
    assert.equal(bucket.reserve(), 100);
    clock.advance(50);
    assert.equal(bucket.reserve(), 150);
  });

  it('given a long idle time, then the bucket refills only up to burst', () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket(10, 2, clock);
    clock.advance(3_600_000);
    assert.deepEqual([bucket.reserve(), bucket.reserve(), bucket.reserve()], [0, 0, 100]);
  });

  it('given infinite qps, then nothing ever waits', () => {
    const bucket = new TokenBucket(Infinity, 0, new FakeClock());
    assert.deepEqual([bucket.reserve(), bucket.reserve()], [0, 0]);
  });

  it('given a non-positive qps or burst, then construction fails', () => {
    assert.throws(() => new TokenBucket(0, 1, new FakeClock()), RangeError);
    assert.throws(() => new TokenBucket(10, 0, new FakeClock()), RangeError);
  });
});

describe('BucketRateLimiter', () => {
  it('given any items, then they share one bucket and none is counted', () => {
    const limiter = new BucketRateLimiter(new TokenBucket(10, 1, new FakeClock()));
    assert.equal(limiter.when('one'), 0);
    assert.equal(limiter.when('two'), 100);
    assert.equal(limiter.numRequeues('two'), 0);
  });
});

describe('MaxOfRateLimiter', () => {
  it('given several limiters, then when is the longest delay and numRequeues the largest count', () => {
    const slow = fixedRateLimiter(3000);
    const limiter = new MaxOfRateLimiter(fixedRateLimiter(5), slow, new ItemExponentialFailureRateLimiter(1, 1000));
    assert.equal(limiter.when('one'), 3000);
    limiter.when('one');
    assert.equal(limiter.numRequeues('one'), 2);
  });

  it('given an item, when it is forgotten, then every limiter forgets it', () => {
    const a = fixedRateLimiter(1);
    const b = fixedRateLimiter(2);
    const limiter = new MaxOfRateLimiter(a, b);
    limiter.when('one');
    limiter.forget('one');
    assert.deepEqual([a.forgotten, b.forgotten], [['one'], ['one']]);
    assert.equal(limiter.numRequeues('one'), 0);
  });
});

describe('defaultControllerRateLimiter', () => {
  it('given one failing item, then it backs off from 5 ms doubling', () => {
    const limiter = defaultControllerRateLimiter(new FakeClock());
    assert.deepEqual([limiter.when('a'), limiter.when('a'), limiter.when('a')], [5, 10, 20]);
  });

  it('given 100 items already retried at once, then the 101st waits for the 10 qps bucket', () => {
    const limiter = defaultControllerRateLimiter(new FakeClock());
    for (let i = 0; i < 100; i++) limiter.when(`item-${i}`);
    assert.equal(limiter.when('item-100'), 100);
    assert.equal(limiter.numRequeues('item-100'), 1);
  });
});
