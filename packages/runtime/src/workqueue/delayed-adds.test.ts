import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Scheduler } from './clock.ts';
import { DelayedAdds } from './delayed-adds.ts';
import { FakeClock } from './fake-clock.ts';
import { Workqueue } from './workqueue.ts';

/** given builds DelayedAdds on a fake clock that records when each item became ready. */
function given(scheduler?: (clock: FakeClock) => Scheduler) {
  const clock = new FakeClock();
  const ready: (readonly [string, number])[] = [];
  const delayed = new DelayedAdds<string>(clock, scheduler?.(clock) ?? clock, (item) =>
    ready.push([item, clock.now()]),
  );
  return { clock, delayed, ready };
}

describe('DelayedAdds', () => {
  it('given an item delayed 100 ms, then it becomes ready at 100 ms and not before', () => {
    const { clock, delayed, ready } = given();
    delayed.add('a', 100);
    clock.advance(99);
    assert.deepEqual(ready, []);
    clock.advance(1);
    assert.deepEqual(ready, [['a', 100]]);
    assert.equal(delayed.size, 0);
  });

  it('given an item already waiting, when delayed again for less, then the sooner time wins, once', () => {
    const { clock, delayed, ready } = given();
    delayed.add('a', 100);
    delayed.add('a', 50);
    clock.advance(200);
    assert.deepEqual(ready, [['a', 50]]);
  });

  it('given an item already waiting, when delayed again for longer, then the later time is ignored', () => {
    const { clock, delayed, ready } = given();
    delayed.add('a', 50);
    delayed.add('a', 100);
    clock.advance(200);
    assert.deepEqual(ready, [['a', 50]]);
  });

  it('given items of different delays, then they become ready in time order', () => {
    const { clock, delayed, ready } = given();
    delayed.add('late', 30);
    delayed.add('early', 10);
    clock.advance(30);
    assert.deepEqual(
      ready.map(([item]) => item),
      ['early', 'late'],
    );
  });

  it('given a scheduler that caps timers at 1 s, when an item is delayed 2.5 s, then it still waits 2.5 s', () => {
    const capped = (clock: FakeClock): Scheduler => ({
      setTimeout: (fn, ms) => clock.setTimeout(fn, Math.min(ms, 1000)),
      clearTimeout: (handle) => clock.clearTimeout(handle),
    });
    const { clock, delayed, ready } = given(capped);
    delayed.add('a', 2500);
    clock.advance(2499);
    assert.deepEqual(ready, []);
    clock.advance(1);
    assert.deepEqual(ready, [['a', 2500]]);
  });

  it('given waiting items, when dropWhere matches some, then only those are cancelled and returned', () => {
    const { clock, delayed, ready } = given();
    delayed.add('ns1/a', 10);
    delayed.add('ns2/b', 10);
    assert.deepEqual(
      delayed.dropWhere((item) => item.startsWith('ns1/')),
      ['ns1/a'],
    );
    clock.advance(10);
    assert.deepEqual(ready, [['ns2/b', 10]]);
    assert.equal(clock.pendingTimers(), 0);
  });
});

describe('Workqueue.addAfter', () => {
  it('given a zero or negative delay, then the key is added at once', () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ name: 'test', clock, scheduler: clock });
    queue.addAfter('a', 0);
    queue.addAfter('b', -5);
    assert.equal(queue.len(), 2);
  });

  it('given a key already queued, when its delayed add fires, then it is still queued once', () => {
    const clock = new FakeClock();
    const queue = new Workqueue({ name: 'test', clock, scheduler: clock });
    queue.add('a');
    queue.addAfter('a', 10);
    clock.advance(10);
    assert.equal(queue.len(), 1);
  });
});
