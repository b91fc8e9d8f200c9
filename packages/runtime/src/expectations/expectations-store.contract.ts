import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ExpectationsStore } from './expectations.ts';

/**
 * itBehavesLikeExpectations registers the specification every ExpectationsStore must meet (upstream's
 * ControllerExpectations + UIDTrackingControllerExpectations, no expiry), so the in-memory double and the Redis
 * store are held to the same rules. fresh gives a store with no records (and a TTL far away).
 */
export function itBehavesLikeExpectations(fresh: () => Promise<ExpectationsStore> | ExpectationsStore): void {
  const rc = 'ns/rc';

  it('given no record, then the key is satisfied and nothing is pending', async () => {
    assert.deepEqual(await (await fresh()).view(rc), { satisfied: true, pendingDeletes: [] });
  });

  it('given 2 expected creations, then only the second observed creation satisfies the key', async () => {
    const store = await fresh();
    await store.set(rc, { type: 'ExpectCreations', adds: 2 });
    assert.equal((await store.view(rc)).satisfied, false);
    await store.creationObserved(rc);
    assert.equal((await store.view(rc)).satisfied, false);
    await store.creationObserved(rc);
    assert.deepEqual(await store.view(rc), { satisfied: true, pendingDeletes: [] });
  });

  it('given expected deletions, when a pod is seen terminating and then deleted, then it counts once (TestDeletionTimestamp)', async () => {
    const store = await fresh();
    await store.set(rc, { type: 'ExpectDeletions', podKeys: ['ns/b', 'ns/a', 'ns/a'] });
    assert.deepEqual(await store.view(rc), { satisfied: false, pendingDeletes: ['ns/a', 'ns/b'] });
    await store.deletionObserved(rc, 'ns/a');
    await store.deletionObserved(rc, 'ns/a');
    assert.deepEqual(await store.view(rc), { satisfied: false, pendingDeletes: ['ns/b'] });
    await store.deletionObserved(rc, 'ns/b');
    assert.deepEqual(await store.view(rc), { satisfied: true, pendingDeletes: [] });
  });

  it('given expected deletions, when an untracked pod is deleted, then nothing is lowered', async () => {
    const store = await fresh();
    await store.set(rc, { type: 'ExpectDeletions', podKeys: ['ns/a'] });
    await store.deletionObserved(rc, 'ns/other');
    assert.deepEqual(await store.view(rc), { satisfied: false, pendingDeletes: ['ns/a'] });
  });

  it('given a record, when expectations are set again, then the new record replaces it, delete keys included', async () => {
    const store = await fresh();
    await store.set(rc, { type: 'ExpectDeletions', podKeys: ['ns/a'] });
    await store.set(rc, { type: 'ExpectCreations', adds: 1 });
    assert.deepEqual(await store.view(rc), { satisfied: false, pendingDeletes: [] });
    await store.set(rc, { type: 'ExpectDeletions', podKeys: ['ns/b'] });
    await store.deletionObserved(rc, 'ns/b');
    assert.deepEqual(await store.view(rc), { satisfied: true, pendingDeletes: [] });
  });

  it('given no record, when creations are observed, then nothing is banked for a later record', async () => {
    const store = await fresh();
    await store.creationObserved(rc);
    await store.deletionObserved(rc, 'ns/a');
    assert.equal((await store.view(rc)).satisfied, true);
    await store.set(rc, { type: 'ExpectCreations', adds: 1 });
    assert.equal((await store.view(rc)).satisfied, false);
  });

  it('given more observations than expected, then the count goes below zero and the key stays satisfied', async () => {
    const store = await fresh();
    await store.set(rc, { type: 'ExpectCreations', adds: 1 });
    await store.creationObserved(rc);
    await store.creationObserved(rc);
    assert.equal((await store.view(rc)).satisfied, true);
  });

  it('given mutations that failed, when lower is called, then their creations and tracked deletions are undone', async () => {
    const store = await fresh();
    await store.set(rc, { type: 'ExpectCreations', adds: 3 });
    await store.lower(rc, 2, []);
    assert.equal((await store.view(rc)).satisfied, false);
    await store.lower(rc, 1, []);
    assert.equal((await store.view(rc)).satisfied, true);
    await store.set(rc, { type: 'ExpectDeletions', podKeys: ['ns/a', 'ns/b', 'ns/c'] });
    await store.lower(rc, 0, ['ns/a', 'ns/c', 'ns/untracked']);
    assert.deepEqual(await store.view(rc), { satisfied: false, pendingDeletes: ['ns/b'] });
  });

  it('given a record, when it is deleted and the controller recreated, then it starts clean (TestExpectationsOnRecreate)', async () => {
    const store = await fresh();
    await store.set(rc, { type: 'ExpectDeletions', podKeys: ['ns/a'] });
    await store.delete(rc);
    assert.deepEqual(await store.view(rc), { satisfied: true, pendingDeletes: [] });
    await store.set(rc, { type: 'ExpectDeletions', podKeys: ['ns/a'] });
    await store.set(rc, { type: 'DeleteExpectations' });
    await store.deletionObserved(rc, 'ns/a');
    await store.set(rc, { type: 'ExpectCreations', adds: 1 });
    assert.deepEqual(await store.view(rc), { satisfied: false, pendingDeletes: [] });
  });

  it('given two controller keys, then their records are independent', async () => {
    const store = await fresh();
    await store.set('ns/one', { type: 'ExpectCreations', adds: 1 });
    await store.set('ns/two', { type: 'ExpectDeletions', podKeys: ['ns/a'] });
    await store.creationObserved('ns/two');
    await store.deletionObserved('ns/one', 'ns/a');
    assert.equal((await store.view('ns/one')).satisfied, false);
    assert.deepEqual(await store.view('ns/two'), { satisfied: false, pendingDeletes: ['ns/a'] });
  });
}
