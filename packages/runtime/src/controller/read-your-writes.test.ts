import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HELD_RETRY_MS, HOLD_LIMIT_MS, ReadYourWrites } from './read-your-writes.ts';

const KEY = 'ns/rc';
const PODS = 'kcm.watch.pods';

describe('ReadYourWrites (upstream ConsistencyStore plus the wait for results)', () => {
  it('given writes in flight, then the key waits until the last result comes, which asks for a sync', () => {
    const rw = new ReadYourWrites();
    rw.published(KEY, ['a', 'b'], 0);
    assert.equal(rw.ready(KEY, 1), false);
    assert.equal(rw.resulted(KEY, 'a'), false);
    assert.equal(rw.ready(KEY, 1), false);
    assert.equal(rw.resulted(KEY, 'b'), true);
    assert.equal(rw.ready(KEY, 1), true);
  });

  it('given a key held for its own write to come back, then the watch record that brings it releases the key at once', () => {
    const rw = new ReadYourWrites();
    rw.published(KEY, ['a'], 0);
    rw.resulted(KEY, 'a', { topic: PODS, partition: 0, resourceVersion: '20' });
    rw.readAt(PODS, 0, '15');
    assert.equal(rw.ready(KEY, 1), false);
    assert.deepEqual(rw.readAt(PODS, 1, '25'), [], 'another partition releases nothing');
    assert.deepEqual(rw.readAt(PODS, 0, '19'), []);
    assert.deepEqual(rw.readAt(PODS, 0, '20'), [KEY]);
    assert.deepEqual(rw.readAt(PODS, 0, '21'), [], 'released once');
    assert.equal(rw.ready(KEY, 1), true);
  });

  it('given a record without a version (a tombstone), then it moves nothing: a held key stays held', () => {
    const rw = new ReadYourWrites();
    rw.readAt(PODS, 0, '15');
    rw.published(KEY, ['a'], 0);
    rw.resulted(KEY, 'a', { topic: PODS, partition: 0, resourceVersion: '20' });
    assert.equal(rw.ready(KEY, 1), false);
    assert.deepEqual(rw.readAt(PODS, 0, ''), []);
    assert.equal(rw.ready(KEY, 1), false);
  });

  it('given a write at resourceVersion 20, then the key waits until its partition of that topic was read at 20 or later (EnsureReady)', () => {
    const rw = new ReadYourWrites();
    rw.readAt(PODS, 0, '15');
    rw.published(KEY, ['a'], 0);
    rw.resulted(KEY, 'a', { topic: PODS, partition: 0, resourceVersion: '20' });
    rw.readAt(PODS, 1, '30');
    assert.equal(rw.ready(KEY, 1), false, 'another partition read further does not count');
    rw.readAt(PODS, 0, '20');
    assert.equal(rw.ready(KEY, 1), true);
    rw.readAt(PODS, 0, '5');
    assert.equal(rw.ready(KEY, 1), true, 'a ready key is cleared, and reads only move forward');
  });

  it("given a write to an object on another partition than the key's (a singleton writing nodes), then that partition reads it back", () => {
    const rw = new ReadYourWrites();
    rw.readAt('nodes', 2, '15');
    rw.published('~monitor', ['a'], 0);
    rw.resulted('~monitor', 'a', { topic: 'nodes', partition: 2, resourceVersion: '20' });
    rw.readAt('nodes', 0, '30');
    assert.equal(rw.ready('~monitor', 1), false, 'partition 0 read further does not count');
    assert.deepEqual(rw.readAt('nodes', 2, '20'), ['~monitor']);
    assert.equal(rw.ready('~monitor', 1), true);
  });

  it('given a topic never read or versions that do not compare, then nothing is held (as upstream)', () => {
    const rw = new ReadYourWrites();
    rw.published(KEY, ['a', 'b'], 0);
    rw.resulted(KEY, 'a', { topic: 'kcm.watch.replicationcontrollers', partition: 0, resourceVersion: '20' });
    rw.resulted(KEY, 'b', { topic: PODS, partition: 0, resourceVersion: 'x1' });
    rw.readAt(PODS, 0, '3');
    assert.equal(rw.ready(KEY, 1), true);
  });

  it('given a result that never comes, then the key is held no longer than HOLD_LIMIT_MS', () => {
    const rw = new ReadYourWrites();
    rw.published(KEY, ['a'], 1000);
    assert.equal(rw.overdue(KEY, 1000 + HOLD_LIMIT_MS - 1), undefined);
    assert.equal(rw.ready(KEY, 1000 + HOLD_LIMIT_MS - 1), false);
    assert.deepEqual(rw.overdue(KEY, 1000 + HOLD_LIMIT_MS), { ids: ['a'], waitedMs: HOLD_LIMIT_MS });
    assert.equal(rw.ready(KEY, 1000 + HOLD_LIMIT_MS), true);
    assert.equal(rw.overdue(KEY, 1000 + HOLD_LIMIT_MS), undefined, 'told once: the key no longer waits for it');
  });

  it('given a held key, then it is looked at again when the hold limit ends while results are due (the last result enqueues it), after HELD_RETRY_MS while its watch records are', () => {
    const rw = new ReadYourWrites();
    rw.published(KEY, ['a'], 1000);
    assert.equal(rw.retryInMs(KEY, 3000), HOLD_LIMIT_MS - 2000);
    rw.resulted(KEY, 'a', { topic: 'pods', partition: 0, resourceVersion: '9' });
    rw.readAt('pods', 0, '8');
    assert.equal(rw.ready(KEY, 3000), false);
    assert.equal(rw.retryInMs(KEY, 3000), HELD_RETRY_MS);
  });

  it('given writes that were not sent, or a forgotten key, then nothing is held; results of unknown ids change nothing', () => {
    const rw = new ReadYourWrites();
    rw.published(KEY, ['a'], 0);
    rw.unpublished(KEY, ['a']);
    assert.equal(rw.ready(KEY, 1), true);
    rw.published('ns/other', ['b'], 0);
    rw.dropWhere((key) => key === 'ns/other');
    assert.equal(rw.ready('ns/other', 1), true);
    assert.equal(rw.resulted(KEY, 'zzz'), false);
  });
});
