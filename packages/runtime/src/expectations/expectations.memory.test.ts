import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../workqueue/fake-clock.ts';
import { itBehavesLikeExpectations } from './expectations-store.contract.ts';
import { MemoryExpectations } from './expectations.memory.ts';

describe('MemoryExpectations', () => {
  itBehavesLikeExpectations(() => new MemoryExpectations({ clock: new FakeClock(), ttlMs: 60_000 }));

  it('given unfulfilled expectations, when the TTL passes without observations, then the key is satisfied', async () => {
    const clock = new FakeClock();
    const store = new MemoryExpectations({ clock, ttlMs: 60_000 });
    await store.set('ns/rc', { type: 'ExpectDeletions', objectKeys: ['ns/a'] });
    clock.advance(60_000);
    assert.deepEqual(await store.view('ns/rc'), { satisfied: false, pendingCreates: [], pendingDeletes: ['ns/a'] });
    clock.advance(1);
    assert.deepEqual(await store.view('ns/rc'), { satisfied: true, pendingCreates: [], pendingDeletes: [] });
  });

  it('given expired expectations, when they are set again, then the new record holds the key back afresh', async () => {
    const clock = new FakeClock();
    const store = new MemoryExpectations({ clock, ttlMs: 1000 });
    await store.set('ns/rc', { type: 'ExpectCreations', objectKeys: ['ns/p'] });
    clock.advance(5000);
    await store.set('ns/rc', { type: 'ExpectCreations', objectKeys: ['ns/p'] });
    assert.equal((await store.view('ns/rc')).satisfied, false);
  });
});
