import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  creationObserved, deletionObserved, EXPECTATIONS_FLAGS, expectationsView, expectCreations, expectDeletions, fulfilled,
  isExpired, lowerExpectations, recordFor, satisfiedExpectations,
} from './expectations.ts';

const TTL = 600_000;

describe('expectations (pure rules)', () => {
  it('given ExpectCreations(2) at t=5, then the record expects 2 adds, no deletes, stamped 5', () => {
    assert.deepEqual(expectCreations(2, 5), { add: 2, del: 0, deleteKeys: [], timestamp: 5 });
    assert.deepEqual(recordFor({ type: 'ExpectCreations', adds: 2 }, 5), expectCreations(2, 5));
  });

  it('given ExpectDeletions with a repeated key, then del counts distinct keys', () => {
    assert.deepEqual(expectDeletions(['ns/a', 'ns/b', 'ns/a'], 0), { add: 0, del: 2, deleteKeys: ['ns/a', 'ns/b'], timestamp: 0 });
  });

  it('given a DeleteExpectations change, then there is no record', () => {
    assert.equal(recordFor({ type: 'DeleteExpectations' }, 0), undefined);
  });

  it('given a tracked key, when its deletion is observed twice, then del drops once and the key is untracked', () => {
    const once = deletionObserved(expectDeletions(['ns/a', 'ns/b'], 0), 'ns/a');
    assert.deepEqual(once, { add: 0, del: 1, deleteKeys: ['ns/b'], timestamp: 0 });
    assert.deepEqual(deletionObserved(once, 'ns/a'), once);
  });

  it('given a record, when a creation is observed, then add drops by one and the timestamp stays', () => {
    assert.deepEqual(creationObserved(expectCreations(1, 7)), { add: 0, del: 0, deleteKeys: [], timestamp: 7 });
  });

  it('given lowerExpectations with adds and keys, then both counters drop, only for tracked keys', () => {
    const lowered = lowerExpectations({ add: 3, del: 2, deleteKeys: ['ns/a', 'ns/b'], timestamp: 0 }, 2, ['ns/b', 'ns/x']);
    assert.deepEqual(lowered, { add: 1, del: 1, deleteKeys: ['ns/a'], timestamp: 0 });
  });

  it('fulfilled holds when neither count is positive, negatives included', () => {
    assert.equal(fulfilled({ add: 0, del: 0, deleteKeys: [], timestamp: 0 }), true);
    assert.equal(fulfilled({ add: -1, del: 0, deleteKeys: [], timestamp: 0 }), true);
    assert.equal(fulfilled({ add: 1, del: -3, deleteKeys: [], timestamp: 0 }), false);
    assert.equal(fulfilled({ add: 0, del: 1, deleteKeys: [], timestamp: 0 }), false);
  });

  it('isExpired only once strictly more than the TTL has passed, as upstream', () => {
    const record = expectCreations(1, 1000);
    assert.equal(isExpired(record, 1000 + TTL, TTL), false);
    assert.equal(isExpired(record, 1000 + TTL + 1, TTL), true);
  });

  it('satisfiedExpectations: no record, fulfilled or expired → true; pending and fresh → false', () => {
    assert.equal(satisfiedExpectations(undefined, 0, TTL), true);
    assert.equal(satisfiedExpectations(expectCreations(0, 0), 0, TTL), true);
    assert.equal(satisfiedExpectations(expectCreations(1, 0), TTL, TTL), false);
    assert.equal(satisfiedExpectations(expectCreations(1, 0), TTL + 1, TTL), true);
  });

  it('given an expired record with pending deletes, then the view reads as no record', () => {
    const record = expectDeletions(['ns/b', 'ns/a'], 0);
    assert.deepEqual(expectationsView(record, TTL, TTL), { satisfied: false, pendingDeletes: ['ns/a', 'ns/b'] });
    assert.deepEqual(expectationsView(record, TTL + 1, TTL), { satisfied: true, pendingDeletes: [] });
  });

  it('given the flags, then --expectations-ttl-seconds defaults to 600, not upstream\'s 300', () => {
    assert.deepEqual(EXPECTATIONS_FLAGS.map((f) => [f.name, f.default]), [['expectations-ttl-seconds', 600]]);
  });
});
