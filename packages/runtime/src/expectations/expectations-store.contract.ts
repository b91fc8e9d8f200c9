import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ExpectationsStore } from './expectations.ts';

/**
 * itBehavesLikeExpectations registers the specification every ExpectationsStore must meet (upstream's
 * ControllerExpectations + UIDTrackingControllerExpectations with creations tracked by key too, no expiry), so the
 * in-memory double and the Redis store are held to the same rules. fresh gives a store with no records (and a TTL
 * far away).
 */
export function itBehavesLikeExpectations(fresh: () => Promise<ExpectationsStore> | ExpectationsStore): void {
  const rc = 'ns/rc';
  const idle = { satisfied: true, pendingCreates: [], pendingDeletes: [] };

  it('given no record, then the key is satisfied and nothing is pending', async () => {
    assert.deepEqual(await (await fresh()).view(rc), idle);
  });

  it('given 2 expected creations, then only the second observed creation satisfies the key', async () => {
    const store = await fresh();
    await store.set(rc, { type: 'ExpectCreations', objectKeys: ['ns/b', 'ns/a'] });
    assert.deepEqual(await store.view(rc), { satisfied: false, pendingCreates: ['ns/a', 'ns/b'], pendingDeletes: [] });
    await store.lower(rc, ['ns/a'], []);
    assert.equal((await store.view(rc)).satisfied, false);
    await store.lower(rc, ['ns/b'], []);
    assert.deepEqual(await store.view(rc), idle);
  });

  it('given an expected creation, when it is observed twice (a restore) or an untracked pod appears, then it counts once', async () => {
    const store = await fresh();
    await store.set(rc, { type: 'ExpectCreations', objectKeys: ['ns/a', 'ns/b'] });
    await store.lower(rc, ['ns/a', 'ns/a', 'ns/other'], []);
    await store.lower(rc, ['ns/a'], []);
    assert.deepEqual(await store.view(rc), { satisfied: false, pendingCreates: ['ns/b'], pendingDeletes: [] });
  });

  it('given expected deletions, when a pod is seen terminating and then deleted, then it counts once (TestDeletionTimestamp)', async () => {
    const store = await fresh();
    await store.set(rc, { type: 'ExpectDeletions', objectKeys: ['ns/b', 'ns/a', 'ns/a'] });
    assert.deepEqual(await store.view(rc), { satisfied: false, pendingCreates: [], pendingDeletes: ['ns/a', 'ns/b'] });
    await store.lower(rc, [], ['ns/a']);
    await store.lower(rc, [], ['ns/a', 'ns/other']);
    assert.deepEqual(await store.view(rc), { satisfied: false, pendingCreates: [], pendingDeletes: ['ns/b'] });
    await store.lower(rc, [], ['ns/b']);
    assert.deepEqual(await store.view(rc), idle);
  });

  it('given a record, when expectations are set again, then the new record replaces it, keys included', async () => {
    const store = await fresh();
    await store.set(rc, { type: 'ExpectDeletions', objectKeys: ['ns/a'] });
    await store.set(rc, { type: 'ExpectCreations', objectKeys: ['ns/c'] });
    assert.deepEqual(await store.view(rc), { satisfied: false, pendingCreates: ['ns/c'], pendingDeletes: [] });
    await store.set(rc, { type: 'ExpectDeletions', objectKeys: ['ns/b'] });
    await store.lower(rc, [], ['ns/b']);
    assert.deepEqual(await store.view(rc), idle);
  });

  it('given no record, when objects are observed, then nothing is banked for a later record', async () => {
    const store = await fresh();
    await store.lower(rc, ['ns/c'], ['ns/a']);
    assert.deepEqual(await store.view(rc), idle);
    await store.set(rc, { type: 'ExpectCreations', objectKeys: ['ns/c'] });
    assert.equal((await store.view(rc)).satisfied, false);
  });

  it('given a record, when it is deleted and the controller recreated, then it starts clean (TestExpectationsOnRecreate)', async () => {
    const store = await fresh();
    await store.set(rc, { type: 'ExpectDeletions', objectKeys: ['ns/a'] });
    await store.delete(rc);
    assert.deepEqual(await store.view(rc), idle);
    await store.set(rc, { type: 'ExpectDeletions', objectKeys: ['ns/a'] });
    await store.set(rc, { type: 'DeleteExpectations' });
    await store.lower(rc, [], ['ns/a']);
    await store.set(rc, { type: 'ExpectCreations', objectKeys: ['ns/c'] });
    assert.deepEqual(await store.view(rc), { satisfied: false, pendingCreates: ['ns/c'], pendingDeletes: [] });
  });

  it('given two controller keys, then their records are independent', async () => {
    const store = await fresh();
    await store.set('ns/one', { type: 'ExpectCreations', objectKeys: ['ns/a'] });
    await store.set('ns/two', { type: 'ExpectDeletions', objectKeys: ['ns/a'] });
    await store.lower('ns/two', ['ns/a'], []);
    await store.lower('ns/one', [], ['ns/a']);
    assert.equal((await store.view('ns/one')).satisfied, false);
    assert.deepEqual(await store.view('ns/two'), { satisfied: false, pendingCreates: [], pendingDeletes: ['ns/a'] });
  });
}
