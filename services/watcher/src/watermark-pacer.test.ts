import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WatermarkPacer } from './watermark-pacer.ts';

const pacing = { intervalMs: 1000, idleIntervalMs: 5000 };

/** markedAt gives a pacer whose kinds last marked at t (ms). */
function markedAt(t: number, kinds = ['Pod', 'ReplicationController']): WatermarkPacer {
  const pacer = new WatermarkPacer(pacing);
  for (const kind of kinds) pacer.marked(kind, t);
  return pacer;
}

describe('WatermarkPacer', () => {
  it('given a kind that never marked, then its watermark is due at once', () => {
    assert.equal(new WatermarkPacer(pacing).due('Pod', 0), true);
  });

  it('given nothing changed since a mark, then the next is due only after the idle interval', () => {
    const pacer = markedAt(10_000);
    assert.equal(pacer.due('Pod', 11_000), false, 'one interval later');
    assert.equal(pacer.due('Pod', 14_999), false, 'just under the idle interval');
    assert.equal(pacer.due('Pod', 15_000), true, 'the idle interval');
  });

  it('given a quiet spell, when another kind changes, then every kind is due at once (a cut waits one hop)', () => {
    const pacer = markedAt(10_000);
    pacer.changed(13_000);
    assert.equal(pacer.due('Pod', 13_000), true);
    assert.equal(pacer.due('ReplicationController', 13_000), true);
  });

  it('given a mark just went out, when a kind changes, then the next is due one interval after that mark, not before', () => {
    const pacer = markedAt(10_000);
    pacer.changed(10_200);
    assert.equal(pacer.due('Pod', 10_999), false);
    assert.equal(pacer.due('Pod', 11_000), true);
  });

  it('given a change, then every kind marks once per interval until the idle interval passed without one', () => {
    const pacer = markedAt(10_000, ['Pod']);
    pacer.changed(12_000);
    const marks: number[] = [];
    for (let t = 12_000; t <= 30_000; t += 100) {
      if (!pacer.due('Pod', t)) continue;
      pacer.marked('Pod', t);
      marks.push(t);
    }
    assert.deepEqual(marks, [12_000, 13_000, 14_000, 15_000, 16_000, 21_000, 26_000]);
  });

  it('given changes without pause, then each kind marks once per interval', () => {
    const pacer = markedAt(0, ['Pod']);
    const marks: number[] = [];
    for (let t = 0; t <= 3000; t += 100) {
      pacer.changed(t);
      if (pacer.due('Pod', t)) {
        pacer.marked('Pod', t);
        marks.push(t);
      }
    }
    assert.deepEqual(marks, [1000, 2000, 3000]);
  });

  it('given changes going on, when an object a controller syncs at a cut is created, then every kind is due at once, once', () => {
    const pacer = markedAt(10_000);
    pacer.changed(10_100);
    assert.equal(pacer.due('Pod', 10_200), false, 'busy: one interval after the mark');
    pacer.created(10_200);
    assert.equal(pacer.due('Pod', 10_200), true);
    assert.equal(pacer.due('ReplicationController', 10_200), true);
    pacer.marked('Pod', 10_300);
    assert.equal(pacer.due('Pod', 10_400), false, 'the creation was marked');
    assert.equal(pacer.due('Pod', 11_300), true, 'and the creation counts as a change: one interval later');
  });

  it('given an interval of 0 or an idle interval shorter than the interval, then it refuses, naming both', () => {
    assert.throws(() => new WatermarkPacer({ intervalMs: 0, idleIntervalMs: 5000 }), /0 < interval \(0 ms\)/);
    assert.throws(() => new WatermarkPacer({ intervalMs: 1000, idleIntervalMs: 500 }), /idle interval \(500 ms\)/);
  });

  it('asks often enough to mark a change within a tenth of the interval, at most every 100 ms', () => {
    assert.equal(new WatermarkPacer(pacing).pollMs, 100);
    assert.equal(new WatermarkPacer({ intervalMs: 500, idleIntervalMs: 500 }).pollMs, 50);
    assert.equal(new WatermarkPacer({ intervalMs: 5, idleIntervalMs: 5 }).pollMs, 1);
  });

  it('given two kinds polled, when a poll time passes, then each is asked once, with the clock; when both are removed, then nothing runs until a poll is added again', (t) => {
    t.mock.timers.enable({ apis: ['setInterval', 'Date'], now: 50_000 });
    const pacer = new WatermarkPacer(pacing);
    const asked: [string, number][] = [];
    const removals = ['Pod', 'Node'].map((kind) => pacer.onPoll((nowMs) => asked.push([kind, nowMs])));
    t.mock.timers.tick(100);
    assert.deepEqual(asked, [
      ['Pod', 50_100],
      ['Node', 50_100],
    ]);
    removals[0]!();
    t.mock.timers.tick(100);
    assert.deepEqual(asked.slice(2), [['Node', 50_200]], 'a removed poll is not asked');
    removals[1]!();
    t.mock.timers.tick(1000);
    assert.equal(asked.length, 3, 'no poll left: nothing runs');
    const again = pacer.onPoll((nowMs) => asked.push(['Pod', nowMs]));
    t.mock.timers.tick(100);
    assert.deepEqual(
      asked.slice(3),
      [['Pod', 51_300]],
      'a poll registered after the last removal starts the timer again',
    );
    again();
  });

  it("given a clock, then the polls carry its time, not the wall clock's", (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    const pacer = new WatermarkPacer(pacing, () => 7_000);
    const asked: number[] = [];
    const unpoll = pacer.onPoll((nowMs) => asked.push(nowMs));
    t.mock.timers.tick(100);
    unpoll();
    assert.deepEqual(asked, [7_000]);
  });

  it('given the event loop held 14 s (SIGSTOP), when the late poll comes, then it asks no kind (the sockets may hold unread events); the next poll asks again', (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    let now = 1_000;
    const pacer = new WatermarkPacer(pacing, () => now);
    const asked: number[] = [];
    const unpoll = pacer.onPoll((nowMs) => asked.push(nowMs));
    t.mock.timers.tick(100);
    now += 14_000;
    t.mock.timers.tick(100);
    now += 100;
    t.mock.timers.tick(100);
    unpoll();
    assert.deepEqual(asked, [1_000, 15_100]);
  });
});
