import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  EXPECTATIONS_FLAGS,
  expectationsView,
  expectCreations,
  expectDeletions,
  fulfilled,
  isExpired,
  lowerExpectations,
  recordFor,
  satisfiedExpectations,
} from './expectations.ts';

const TTL = 600_000;

describe('expectations (pure rules)', () => {
  it('given ExpectCreations of 2 names at t=5, then the record expects those creations, no deletes, stamped 5', () => {
    assert.deepEqual(expectCreations(['ns/a', 'ns/b'], 5), {
      createKeys: ['ns/a', 'ns/b'],
      deleteKeys: [],
      timestamp: 5,
    });
    assert.deepEqual(
      recordFor({ type: 'ExpectCreations', objectKeys: ['ns/a', 'ns/b'] }, 5),
      expectCreations(['ns/a', 'ns/b'], 5),
    );
  });

  it('given ExpectDeletions with a repeated key, then the key is tracked once', () => {
    assert.deepEqual(expectDeletions(['ns/a', 'ns/b', 'ns/a'], 0), {
      createKeys: [],
      deleteKeys: ['ns/a', 'ns/b'],
      timestamp: 0,
    });
  });

  it('given a DeleteExpectations change, then there is no record', () => {
    assert.equal(recordFor({ type: 'DeleteExpectations' }, 0), undefined);
  });

  it('given tracked keys, when observed twice or with untracked keys, then each tracked key goes once and the timestamp stays', () => {
    const record = { createKeys: ['ns/c'], deleteKeys: ['ns/a', 'ns/b'], timestamp: 7 };
    const once = lowerExpectations(record, ['ns/x'], ['ns/a', 'ns/y']);
    assert.deepEqual(once, { createKeys: ['ns/c'], deleteKeys: ['ns/b'], timestamp: 7 });
    assert.deepEqual(lowerExpectations(once, [], ['ns/a']), once);
    assert.deepEqual(lowerExpectations(once, ['ns/c', 'ns/c'], ['ns/b']), {
      createKeys: [],
      deleteKeys: [],
      timestamp: 7,
    });
  });

  it('fulfilled holds when no creation and no deletion is pending', () => {
    assert.equal(fulfilled({ createKeys: [], deleteKeys: [], timestamp: 0 }), true);
    assert.equal(fulfilled({ createKeys: ['ns/a'], deleteKeys: [], timestamp: 0 }), false);
    assert.equal(fulfilled({ createKeys: [], deleteKeys: ['ns/a'], timestamp: 0 }), false);
  });

  it('isExpired only once strictly more than the TTL has passed, as upstream', () => {
    const record = expectCreations(['ns/a'], 1000);
    assert.equal(isExpired(record, 1000 + TTL, TTL), false);
    assert.equal(isExpired(record, 1000 + TTL + 1, TTL), true);
  });

  it('satisfiedExpectations: no record, fulfilled or expired → true; pending and fresh → false', () => {
    assert.equal(satisfiedExpectations(undefined, 0, TTL), true);
    assert.equal(satisfiedExpectations(expectCreations([], 0), 0, TTL), true);
    assert.equal(satisfiedExpectations(expectCreations(['ns/a'], 0), TTL, TTL), false);
    assert.equal(satisfiedExpectations(expectCreations(['ns/a'], 0), TTL + 1, TTL), true);
  });

  it('given an expired record with pending keys, then the view reads as no record', () => {
    const record = { ...expectDeletions(['ns/b', 'ns/a'], 0), createKeys: ['ns/d', 'ns/c'] };
    assert.deepEqual(expectationsView(record, TTL, TTL), {
      satisfied: false,
      pendingCreates: ['ns/c', 'ns/d'],
      pendingDeletes: ['ns/a', 'ns/b'],
    });
    assert.deepEqual(expectationsView(record, TTL + 1, TTL), {
      satisfied: true,
      pendingCreates: [],
      pendingDeletes: [],
    });
  });

  it("given the flags, then --expectations-ttl-seconds defaults to upstream's 300 (ExpectationsTimeout)", () => {
    assert.deepEqual(
      EXPECTATIONS_FLAGS.map((f) => [f.name, f.default]),
      [['expectations-ttl-seconds', 300]],
    );
  });
});
