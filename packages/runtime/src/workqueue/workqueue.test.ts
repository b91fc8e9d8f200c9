import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from './fake-clock.ts';
import { flush, observe, settled } from './promise-state.ts';
import { ItemExponentialFailureRateLimiter } from './rate-limiter.ts';
import { Workqueue } from './workqueue.ts';

/** given builds a queue on a fake clock whose rate limiter backs off 5, 10, 20 ms... per key. */
function given(...keys: string[]): { readonly queue: Workqueue; readonly clock: FakeClock } {
  const clock = new FakeClock();
  const rateLimiter = new ItemExponentialFailureRateLimiter(5, 1000);
  const queue = new Workqueue({ name: 'test', clock, scheduler: clock, rateLimiter });
  for (const key of keys) queue.add(key);
  return { queue, clock };
}

describe('Workqueue: ordering and de-duplication', () => {
  it('given keys added in order, then get hands them out first in, first out', async () => {
    const { queue } = given('a', 'b', 'c');
    assert.deepEqual(
      [await settled(queue.get()), await settled(queue.get()), await settled(queue.get())],
      ['a', 'b', 'c'],
    );
  });

  it('given a key added twice while queued, then it is queued once, at its first position', async () => {
    const { queue } = given('a', 'b', 'a');
    assert.equal(queue.len(), 2);
    assert.deepEqual([await settled(queue.get()), await settled(queue.get())], ['a', 'b']);
  });

  it('given no key queued, when one is added, then a waiting get resolves with it', async () => {
    const { queue } = given();
    const waiting = queue.get();
    queue.add('a');
    assert.equal(await settled(waiting), 'a');
    assert.equal(queue.len(), 0);
  });

  it('given two waiting workers, then keys go to them in the order they asked', async () => {
    const { queue } = given();
    const first = queue.get();
    const second = queue.get();
    queue.add('a');
    queue.add('b');
    assert.deepEqual([await settled(first), await settled(second)], ['a', 'b']);
  });
});

describe('Workqueue: a key is never on two workers', () => {
  it('given a key being processed, when it is re-added, then no other worker gets it until done', async () => {
    const { queue } = given('a');
    assert.equal(await settled(queue.get()), 'a');
    queue.add('a');
    const second = observe(queue.get());
    await flush();
    assert.equal(queue.len(), 0);
    assert.equal(second.settled, false);
    queue.done('a');
    await flush();
    assert.deepEqual(second, { settled: true, value: 'a' });
  });

  it('given a key re-added many times while processed, then done queues it exactly once', async () => {
    const { queue } = given('a', 'b');
    await settled(queue.get());
    queue.add('a');
    queue.add('a');
    queue.done('a');
    assert.equal(queue.len(), 2);
    assert.deepEqual([await settled(queue.get()), await settled(queue.get())], ['b', 'a']);
  });

  it('given a key processed and not re-added, when done, then it is gone', async () => {
    const { queue } = given('a');
    await settled(queue.get());
    queue.done('a');
    queue.done('a');
    assert.equal(queue.len(), 0);
  });
});

describe('Workqueue: rate limiting', () => {
  it('given a failing key, when added rate-limited, then it comes back after its backoff and is counted', () => {
    const { queue, clock } = given();
    queue.addRateLimited('a');
    queue.addRateLimited('a');
    assert.equal(queue.numRequeues('a'), 2);
    clock.advance(4);
    assert.equal(queue.len(), 0);
    clock.advance(1);
    assert.equal(queue.len(), 1);
  });

  it('given a failing key, when forgotten, then its backoff starts over', () => {
    const { queue, clock } = given();
    queue.addRateLimited('a');
    queue.forget('a');
    assert.equal(queue.numRequeues('a'), 0);
    queue.addRateLimited('a');
    clock.advance(5);
    assert.equal(queue.len(), 1);
  });

  it('given keys of two namespaces backing off, when forgetWhere matches one, then only its keys start over', () => {
    const { queue } = given();
    for (const key of ['ns1/a', 'ns1/b', 'ns2/c']) queue.addRateLimited(key);
    assert.equal(
      queue.forgetWhere((key) => key.startsWith('ns1/')),
      2,
    );
    assert.deepEqual(
      ['ns1/a', 'ns1/b', 'ns2/c'].map((key) => queue.numRequeues(key)),
      [0, 0, 1],
    );
  });
});

describe('Workqueue: dropWhere (partition revoked)', () => {
  it('given queued and delayed keys, then matching ones are dropped and the rest stay in order', async () => {
    const { queue, clock } = given('ns1/a', 'ns2/b', 'ns1/c', 'ns2/d');
    queue.addAfter('ns1/e', 10);
    queue.addAfter('ns2/f', 10);
    assert.equal(
      queue.dropWhere((key) => key.startsWith('ns1/')),
      3,
    );
    clock.advance(10);
    assert.deepEqual(
      [await settled(queue.get()), await settled(queue.get()), await settled(queue.get())],
      ['ns2/b', 'ns2/d', 'ns2/f'],
    );
    assert.equal(queue.len(), 0);
  });

  it('given a matching key being processed and re-added, then it stays with its worker but is not requeued', async () => {
    const { queue } = given('ns1/a');
    await settled(queue.get());
    queue.add('ns1/a');
    assert.equal(
      queue.dropWhere((key) => key.startsWith('ns1/')),
      1,
    );
    queue.done('ns1/a');
    assert.equal(queue.len(), 0);
  });
});

describe('Workqueue: shutdown', () => {
  it('given a waiting worker, when shut down, then get resolves undefined and later adds are ignored', async () => {
    const { queue } = given();
    const waiting = queue.get();
    queue.shutDown();
    queue.add('a');
    assert.equal(await settled(waiting), undefined);
    assert.equal(await settled(queue.get()), undefined);
    assert.equal(queue.shuttingDown(), true);
  });

  it('given queued keys, when shut down, then get resolves undefined rather than handing them out', async () => {
    const { queue } = given('a');
    queue.shutDown();
    assert.equal(await settled(queue.get()), undefined);
  });

  it('given delayed keys, when shut down, then their timers are cancelled', () => {
    const { queue, clock } = given();
    queue.addAfter('a', 100);
    queue.shutDown();
    assert.equal(clock.pendingTimers(), 0);
    queue.addAfter('b', 100);
    assert.equal(clock.pendingTimers(), 0);
  });

  it('given keys in flight, when shut down with drain, then it resolves only once all are done', async () => {
    const { queue } = given('a', 'b');
    await settled(queue.get());
    await settled(queue.get());
    const drained = observe(queue.shutDownWithDrain());
    queue.done('a');
    await flush();
    assert.equal(drained.settled, false);
    queue.done('b');
    await flush();
    assert.equal(drained.settled, true);
  });

  it('given nothing in flight, when shut down with drain, then it resolves at once', async () => {
    const { queue } = given('a');
    await settled(queue.shutDownWithDrain());
    assert.equal(await settled(queue.get()), undefined);
  });

  it('given a drain waiting on a stuck key, when shut down, then the drain stops waiting', async () => {
    const { queue } = given('a');
    await settled(queue.get());
    const drained = observe(queue.shutDownWithDrain());
    queue.shutDown();
    await flush();
    assert.equal(drained.settled, true);
  });
});
