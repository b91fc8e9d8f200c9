import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../workqueue/fake-clock.ts';
import { TokenBucket } from './token-bucket.ts';

describe('TokenBucket.reserve (rate.Limiter.ReserveN)', () => {
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

  it('given reservations of several tokens, then each takes them all and more than burst is refused', () => {
    const bucket = new TokenBucket(10, 4, new FakeClock());
    assert.deepEqual([bucket.reserve(3), bucket.reserve(3)], [0, 200]);
    assert.throws(() => bucket.reserve(5), RangeError);
  });

  it('given infinite qps, then nothing ever waits', () => {
    const bucket = new TokenBucket(Infinity, 0, new FakeClock());
    assert.deepEqual([bucket.reserve(), bucket.reserve(), bucket.delay(1000)], [0, 0, 0]);
    assert.equal(bucket.tryAccept(), true);
  });

  it('given a non-positive qps or burst, then construction fails', () => {
    assert.throws(() => new TokenBucket(0, 1, new FakeClock()), RangeError);
    assert.throws(() => new TokenBucket(10, 0, new FakeClock()), RangeError);
  });
});

describe('TokenBucket.tryAccept (flowcontrol TryAccept, rate.Limiter.AllowN)', () => {
  it('given a burst of 2 at 1 per second, then two takes pass, the third is refused without debt, and a second later one passes again', () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket(1, 2, clock);
    assert.deepEqual(
      [bucket.tryAccept(), bucket.tryAccept(), bucket.tryAccept(), bucket.tryAccept()],
      [true, true, false, false],
    );
    clock.advance(1000);
    assert.equal(bucket.tryAccept(), true, 'refusals took nothing: one token refilled');
    assert.equal(bucket.tryAccept(), false);
  });

  it('given several tokens at a time, then they are taken only when all are there', () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket(1, 3, clock);
    assert.deepEqual([bucket.tryAccept(2), bucket.tryAccept(2), bucket.tryAccept(1)], [true, false, true]);
  });

  it('given the time of each call (a pure caller), then the clock only dates the start, and time stepping back refills nothing', () => {
    const bucket = new TokenBucket(0.1, 1, { now: () => 0 });
    assert.deepEqual([bucket.tryAccept(1, 10), bucket.tryAccept(1, 10)], [true, false]);
    assert.equal(bucket.tryAccept(1, 5), false, 'back in time: nothing refilled');
    assert.deepEqual(
      [bucket.tryAccept(1, 10_009), bucket.tryAccept(1, 10_010)],
      [false, true],
      'refilled from 10 ms, not from 5 ms',
    );
  });
});

describe('TokenBucket.delay and wait: tell when, or wait', () => {
  it('given an empty bucket, then delay says when the next token is there and takes none', () => {
    const bucket = new TokenBucket(0.1, 1, { now: () => 0 });
    bucket.tryAccept(1, 10);
    assert.deepEqual([bucket.delay(1, 10), bucket.delay(1, 10), bucket.delay(1, 10_010)], [10_000, 10_000, 0]);
    assert.equal(bucket.delay(2, 10), Infinity, 'more than burst: never');
    assert.equal(bucket.tryAccept(1, 10_010), true);
  });

  it('given an exhausted bucket, then wait resolves only when the clock reaches the reserved turn', async () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket(10, 1, clock);
    await bucket.wait(clock);
    let passed = false;
    const second = bucket.wait(clock).then(() => void (passed = true));
    clock.advance(99);
    await Promise.resolve();
    assert.equal(passed, false);
    clock.advance(1);
    await second;
    assert.equal(passed, true);
  });
});
