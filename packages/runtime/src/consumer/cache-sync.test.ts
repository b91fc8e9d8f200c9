import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CacheSync } from './cache-sync.ts';

const pods = (partition: number) => ({ topic: 'kcm.watch.pods', partition });
const rcs = (partition: number) => ({ topic: 'kcm.watch.replicationcontrollers', partition });

describe('CacheSync', () => {
  it('given a partition assigned at high-water mark 10, then it is synced only once offset 9 is consumed', () => {
    const sync = new CacheSync();
    sync.assigned(pods(0), '10');
    assert.equal(sync.consumed(pods(0), '8'), false);
    assert.equal(sync.synced(pods(0)), false);
    assert.equal(sync.allSynced(), false);
    assert.equal(sync.consumed(pods(0), '9'), true, 'the offset that synced it says so (the member logs it)');
    assert.equal(sync.synced(pods(0)), true);
    assert.equal(sync.allSynced(), true);
    assert.equal(sync.consumed(pods(0), '10'), false, 'only once');
  });

  it('given an empty partition (high = 0, or high = low after retention), then it is synced at once', () => {
    const sync = new CacheSync();
    sync.assigned(pods(0), 0);
    sync.assigned(pods(1), '57', '57');
    assert.equal(sync.synced(pods(0)), true);
    assert.equal(sync.synced(pods(1)), true);
  });

  it("given a transactional partition ending in a commit marker, when kafkajs reports the high-water mark as the batch's last offset, then it is synced", () => {
    const sync = new CacheSync();
    sync.assigned(pods(0), '12');
    sync.consumed(pods(0), '10');
    assert.equal(sync.synced(pods(0)), false);
    sync.consumed(pods(0), '12');
    assert.equal(sync.synced(pods(0)), true);
  });

  it('given offsets beyond 2^53, then they are compared exactly', () => {
    const sync = new CacheSync();
    sync.assigned(pods(0), '9007199254740995');
    sync.consumed(pods(0), '9007199254740993');
    assert.equal(sync.synced(pods(0)), false);
    sync.consumed(pods(0), 9007199254740994n);
    assert.equal(sync.synced(pods(0)), true);
  });

  it('given pods and RCs partition 1, then partition number 1 is synced only when both topics are', () => {
    const sync = new CacheSync();
    sync.assigned(pods(1), 5);
    sync.assigned(rcs(1), 3);
    sync.consumed(pods(1), 4);
    assert.equal(sync.partitionSynced(1), false);
    assert.deepEqual(sync.unsynced(), [rcs(1)]);
    sync.consumed(rcs(1), 2);
    assert.equal(sync.partitionSynced(1), true);
    assert.equal(sync.partitionSynced(0), false);
  });

  it('given a synced partition, when it is revoked and assigned again, then it must catch up again', () => {
    const sync = new CacheSync();
    sync.assigned(pods(0), 1);
    sync.consumed(pods(0), 0);
    sync.revoked(pods(0));
    assert.equal(sync.synced(pods(0)), false);
    assert.equal(sync.allSynced(), true);
    sync.assigned(pods(0), 4);
    assert.equal(sync.synced(pods(0)), false);
  });

  it('given a revoked partition, when a late batch of it is consumed, then nothing is tracked for it', () => {
    const sync = new CacheSync();
    sync.assigned(pods(0), 10);
    sync.assigned(pods(1), 10);
    sync.revoked(pods(0));
    sync.consumed(pods(0), 9);
    assert.deepEqual(sync.unsynced(), [pods(1)]);
    assert.equal(sync.synced(pods(0)), false);
  });

  it('given no partitions assigned, then all is synced but no partition number is', () => {
    const sync = new CacheSync();
    assert.equal(sync.allSynced(), true);
    assert.equal(sync.partitionSynced(0), false);
  });
});
