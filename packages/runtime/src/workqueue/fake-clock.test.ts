import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from './fake-clock.ts';

describe('FakeClock', () => {
  it('given timers due at different times, when advanced past them, then they fire in due order at their due time', () => {
    const clock = new FakeClock(1000);
    const fired: (readonly [string, number])[] = [];
    clock.setTimeout(() => fired.push(['late', clock.now()]), 20);
    clock.setTimeout(() => fired.push(['early', clock.now()]), 10);
    clock.setTimeout(() => fired.push(['tie', clock.now()]), 10);
    clock.advance(15);
    assert.deepEqual(fired, [
      ['early', 1010],
      ['tie', 1010],
    ]);
    clock.advance(5);
    assert.deepEqual(fired.at(-1), ['late', 1020]);
    assert.equal(clock.now(), 1020);
  });

  it('given a timer that schedules another within the window, then both fire in one advance', () => {
    const clock = new FakeClock();
    let ticks = 0;
    const tick = (): void => void (ticks++, clock.setTimeout(tick, 500));
    clock.setTimeout(tick, 500);
    clock.advance(2000);
    assert.equal(ticks, 4);
    assert.equal(clock.pendingTimers(), 1);
  });

  it('given a cleared timer, then it never fires', () => {
    const clock = new FakeClock();
    let fired = false;
    clock.clearTimeout(clock.setTimeout(() => (fired = true), 1));
    clock.advance(10);
    assert.equal(fired, false);
  });

  it('given pending timers, then nextTimerAt names the earliest due time, and none once they fired or were cleared', () => {
    const clock = new FakeClock(1000);
    assert.equal(clock.nextTimerAt(), undefined);
    clock.setTimeout(() => undefined, 30);
    const early = clock.setTimeout(() => undefined, 10);
    assert.equal(clock.nextTimerAt(), 1010);
    clock.clearTimeout(early);
    assert.equal(clock.nextTimerAt(), 1030);
    clock.advance(30);
    assert.equal(clock.nextTimerAt(), undefined);
  });
});
