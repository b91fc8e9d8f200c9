import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TokenBucket } from '../flowcontrol/token-bucket.ts';
import { FakeClock } from './fake-clock.ts';
import {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  type RateLimiter,
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
    assert.deepEqual(
      [1, 2, 3, 4, 5].map(() => limiter.when('one')),
      [1, 2, 4, 8, 16],
    );
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

  it("given the endpointslice controller's backoff (1 s to 1000 s), then one failing item waits 1 s, 2 s, 4 s … up to 1000 s", () => {
    const limiter = defaultControllerRateLimiter(new FakeClock(), { baseDelayMs: 1000, maxDelayMs: 1_000_000 });
    const delays = Array.from({ length: 12 }, () => limiter.when('svc'));
    assert.deepEqual(delays.slice(0, 3), [1000, 2000, 4000]);
    assert.equal(delays.at(-1), 1_000_000);
  });

  it('given 100 items already retried at once, then the 101st waits for the 10 qps bucket', () => {
    const limiter = defaultControllerRateLimiter(new FakeClock());
    for (let i = 0; i < 100; i++) limiter.when(`item-${i}`);
    assert.equal(limiter.when('item-100'), 100);
    assert.equal(limiter.numRequeues('item-100'), 1);
  });
});
