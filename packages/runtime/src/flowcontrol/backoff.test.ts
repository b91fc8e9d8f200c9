import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Backoff, backoffDelay, ExponentialBackoff } from './backoff.ts';

/** REFLECTOR is client-go's reflector backoff (800 ms doubling to 30 s, jitter 1.0): the jitter is not capped. */
const REFLECTOR: Backoff = { durationMs: 800, factor: 2, jitter: 1, capMs: 30_000 };

describe('backoffDelay (wait.Backoff.Step)', () => {
  it('given no jitter, then delays grow by the factor and stop at the cap, and random is never asked', () => {
    const b: Backoff = { durationMs: 100, factor: 2, jitter: 0, capMs: 10_000 };
    const random = (): number => assert.fail('no jitter, no random');
    assert.deepEqual(
      [0, 1, 2, 6, 7, 2000].map((step) => backoffDelay(b, step, random)),
      [100, 200, 400, 6400, 10_000, 10_000],
    );
  });

  it('given jitter, then each delay is stretched by random times jitter times itself, past the cap unless capJittered', () => {
    assert.equal(
      backoffDelay(REFLECTOR, 0, () => 0.5),
      1200,
    );
    assert.equal(
      backoffDelay(REFLECTOR, 10, () => 0.5),
      45_000,
    );
    assert.equal(
      backoffDelay({ ...REFLECTOR, capJittered: true }, 10, () => 0.5),
      30_000,
    );
    assert.equal(
      backoffDelay({ ...REFLECTOR, jitter: 0.5 }, 1, () => 0.5),
      2000,
    );
  });

  it('given a delay the server asked for (Retry-After), then it replaces the backoff, capped too', () => {
    assert.equal(
      backoffDelay(REFLECTOR, 3, () => assert.fail('no jitter'), 2000),
      2000,
    );
    assert.equal(backoffDelay(REFLECTOR, 0, Math.random, 3_600_000), 30_000);
  });
});

describe('ExponentialBackoff', () => {
  it('given repeated failures, then each next steps toward the cap, and reset starts again from the first delay', () => {
    const backoff = new ExponentialBackoff({ ...REFLECTOR, capMs: 10_000 }, () => 0);
    assert.deepEqual(
      Array.from({ length: 6 }, () => backoff.next()),
      [800, 1600, 3200, 6400, 10_000, 10_000],
    );
    backoff.reset();
    assert.equal(backoff.next(), 800);
  });

  it('given a random source, then every delay takes its share of jitter', () => {
    const shares = [0.25, 0.5];
    const backoff = new ExponentialBackoff(REFLECTOR, () => shares.shift() ?? 0);
    assert.deepEqual([backoff.next(), backoff.next(), backoff.next()], [1000, 2400, 3200]);
  });
});
