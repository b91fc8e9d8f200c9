import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  neverRateLimiter,
  RateLimitedTimedQueue,
  type RateLimiter,
  tokenBucketRateLimiter,
} from './rate-limited-queue.ts';

/** alwaysRateLimiter is flowcontrol.NewFakeAlwaysRateLimiter (qps 1, always accepts). */
const alwaysRateLimiter = (): RateLimiter => ({ tryAccept: () => true, qps: () => 1, nextAcceptMs: (now) => now });

function queueOf(values: readonly string[], limiter: RateLimiter = alwaysRateLimiter()): RateLimitedTimedQueue {
  const q = new RateLimitedTimedQueue(limiter);
  values.forEach((v, i) => q.add(v, `uid-${v}`, i + 1));
  return q;
}

function drained(q: RateLimitedTimedQueue, now: number): string[] {
  const order: string[] = [];
  q.try(now, (v) => {
    order.push(v.value);
    return { done: true, waitMs: 0 };
  });
  return order;
}

describe('RateLimitedTimedQueue (rate_limited_queue_test.go)', () => {
  it('TestAddNode: given three adds, then they are queued in order and a second add of a value is refused', () => {
    const q = queueOf(['first', 'second', 'third']);
    assert.equal(q.add('first', 'x', 9), false);
    assert.deepEqual(drained(q, 10), ['first', 'second', 'third']);
  });

  it('TestDelNode: given a removed value, then it is not processed and may be added again', () => {
    const q = queueOf(['first', 'second', 'third']);
    assert.equal(q.remove('first'), true);
    assert.equal(q.remove('absent'), false);
    assert.equal(q.add('first', 'again', 5), true);
    assert.deepEqual(drained(q, 10), ['second', 'third', 'first']);
  });

  it('TestTry: given an action failing for one value, then the others are processed and it is retried later', () => {
    const q = queueOf(['first', 'second', 'third']);
    const order: string[] = [];
    q.try(10, (v) =>
      v.value === 'second' ? { done: false, waitMs: 5 } : (order.push(v.value), { done: true, waitMs: 0 }),
    );
    assert.deepEqual(order, ['first', 'third']);
    assert.equal(q.size(), 1);
    assert.deepEqual(drained(q, 14), []);
    assert.deepEqual(drained(q, 16), ['second']);
  });

  it('TestTryRemovingWhileTry: given a value removed while its action runs, then it is not retried', () => {
    const q = queueOf(['first', 'second', 'third']);
    const order: string[] = [];
    q.try(10, (v) => {
      if (v.value === 'second') {
        q.remove('second');
        return { done: false, waitMs: 1 };
      }
      order.push(v.value);
      return { done: true, waitMs: 0 };
    });
    assert.deepEqual(order, ['first', 'third']);
    assert.equal(q.size(), 0);
  });

  it('TestAddAfterTry: given a processed value, then adding it again is refused until it is removed', () => {
    const q = queueOf(['first']);
    drained(q, 10);
    assert.equal(q.add('first', 'x', 11), false);
    q.remove('first');
    assert.equal(q.add('first', 'x', 12), true);
  });

  it('TestClear: given a cleared queue, then it is empty and values may be added again', () => {
    const q = queueOf(['first', 'second']);
    q.clear();
    assert.equal(q.size(), 0);
    assert.equal(q.add('first', 'x', 3), true);
  });

  it('TestSwapLimiter: given 0 the queue stops (qps 1, as the never limiter says), then a rate swaps in drained', () => {
    const q = queueOf(['first']);
    q.swapLimiter(0, 0);
    assert.equal(q.qps(), 1);
    assert.deepEqual(drained(q, 10), []);
    assert.equal(q.nextDueMs(10), undefined);
    q.swapLimiter(5.5, 10);
    assert.equal(q.qps(), 5.5);
    assert.deepEqual(drained(q, 10), [], 'the never limiter had no token: the new bucket starts drained');
    assert.deepEqual(drained(q, 10 + 1000 / 5.5), ['first']);
  });

  it('SwapLimiter drains the new limiter once when the old one had no token left', () => {
    const q = queueOf(['a', 'b'], tokenBucketRateLimiter(0.1, 1, 0));
    assert.deepEqual(drained(q, 10), ['a']);
    q.swapLimiter(1, 10);
    assert.deepEqual(drained(q, 10), []);
    assert.deepEqual(drained(q, 1010), ['b']);
  });

  it('given a token bucket of 0.1 qps and burst 1, then one value passes at once and the next after 10 s', () => {
    const q = queueOf(['a', 'b'], tokenBucketRateLimiter(0.1, 1, 0));
    assert.deepEqual(drained(q, 10), ['a']);
    assert.equal(q.nextDueMs(10), 10_010);
    assert.deepEqual(drained(q, 10_009), []);
    assert.deepEqual(drained(q, 20_010), ['b']);
  });

  it('given the never limiter, then nothing is ever processed', () => {
    const q = queueOf(['a'], neverRateLimiter());
    assert.deepEqual(drained(q, 1e12), []);
  });

  it('given a blocked head, then the pass stops without taking a token', () => {
    const q = queueOf(['a'], tokenBucketRateLimiter(0.1, 1, 0));
    q.try(
      10,
      () => assert.fail('blocked'),
      () => true,
    );
    assert.deepEqual(drained(q, 10), ['a']);
  });
});
