import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { overCreated, p99Outside, slopePerTenMinutes, type RssSample } from './figures.ts';

/** life is a process's readings every 10 s from `from` for `n` readings, growing `perMinute` MB a minute from `mb`. */
const life = (pid: number, from: number, n: number, mb: number, perMinute: number): RssSample[] =>
  Array.from({ length: n }, (_, i) => ({ t: from + 10 * i, pid, mb: mb + (perMinute * 10 * i) / 60 }));

describe('slopePerTenMinutes', () => {
  it('given one process growing 0.2 MB a minute after a warm-up spike, then 2 MB per 10 minutes once the warm-up is left out', () => {
    const spike = life(1, 0, 30, 50, 20);
    const steady = life(1, 300, 60, 200, 0.2);
    assert.equal(slopePerTenMinutes([...spike, ...steady], 300)?.toFixed(3), '2.000');
    assert.ok((slopePerTenMinutes([...spike, ...steady], 0) ?? 0) > 2);
  });

  it('given a flat process killed and replaced by a flat one at a higher level, then the slope is 0, not the jump', () => {
    const slope = slopePerTenMinutes([...life(1, 0, 60, 100, 0), ...life(2, 600, 60, 180, 0)], 0);
    assert.equal(slope, 0);
  });

  it('given steps at two faults and flat stretches between them, then the slope between faults is 0 and the whole is not', () => {
    const readings = [...life(1, 0, 30, 100, 0), ...life(1, 300, 30, 130, 0), ...life(1, 600, 30, 160, 0)];
    const faults = [
      [290, 299],
      [590, 599],
    ] as const;
    assert.equal(slopePerTenMinutes(readings, 0, faults), 0);
    assert.ok((slopePerTenMinutes(readings, 0) ?? 0) > 50);
  });

  it('given a single reading per process, then there is no slope', () => {
    assert.equal(slopePerTenMinutes([{ t: 0, pid: 1, mb: 1 }], 0), undefined);
  });
});

describe('p99Outside', () => {
  it('given readings inside a fault window, then they are left out', () => {
    const readings = [...Array.from({ length: 100 }, (_, i) => ({ t: i, v: 0.5 })), { t: 200, v: 30 }];
    assert.equal(p99Outside(readings, [[190, 260]]), 0.5);
    assert.equal(p99Outside(readings, []), 0.5);
    assert.equal(p99Outside([{ t: 200, v: 30 }], []), 30);
    assert.equal(p99Outside([{ t: 200, v: 30 }], [[0, 300]]), undefined);
  });
});

describe('overCreated', () => {
  it('given a scale-up that stops at its target, then 0; past it, the excess', () => {
    const up = [{ t: 0, replicas: 3 }];
    assert.equal(
      overCreated(
        up,
        [1, 2, 3].map((n) => ({ t: n, n })),
      ),
      0,
    );
    assert.equal(
      overCreated(
        up,
        [1, 2, 3, 4].map((n) => ({ t: n, n })),
      ),
      1,
    );
  });

  it('given a scale-down and a scale-up while the old pods drain, then the drain is allowed and a pod above it is not', () => {
    const targets = [
      { t: 0, replicas: 10 },
      { t: 20, replicas: 2 },
      { t: 25, replicas: 6 },
    ];
    const drain = [
      { t: 10, n: 10 },
      { t: 21, n: 9 },
      { t: 22, n: 8 },
      { t: 26, n: 7 },
      { t: 27, n: 6 },
    ];
    assert.equal(overCreated(targets, drain), 0);
    assert.equal(overCreated(targets, [...drain, { t: 28, n: 7 }]), 1);
    assert.equal(overCreated(targets, [...drain.slice(0, 3), { t: 26, n: 9 }]), 1);
  });
});
