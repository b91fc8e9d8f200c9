import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { itBehavesLikeExpectations } from '@kcm-bus/runtime/expectations/expectations-store.contract.ts';
import { RedisExpectations } from '@kcm-bus/runtime/expectations/expectations.redis.ts';
import { FencedError } from '@kcm-bus/runtime/expectations/index.ts';
import { testStack, uniqueName } from '../support/stack.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

describe("expectations in Redis (the test stack's Redis)", () => {
  const url = testStack().redis;
  const clients: Redis[] = [];
  const connect = (): Redis => {
    const redis = new Redis(url, { maxRetriesPerRequest: 3 });
    clients.push(redis);
    return redis;
  };
  const shared = connect();
  after(() => clients.forEach((redis) => redis.disconnect()));
  const recordKey = (controller: string, key: string): string => `kcm-bus:exp:{${controller}:0}:${key}`;
  /** withoutToken is a member's store that has not taken partition 0's fencing token, every key's here: it may view and lower only. */
  const withoutToken = (redis: Redis, controller: string, ttlMs = 600_000): RedisExpectations =>
    new RedisExpectations(redis, { controller, ttlMs, partitionOf: () => 0 });
  /** withToken is a member's store that took partition 0's fencing token: the newest, so its record changes are admitted. */
  const withToken = async (redis: Redis, controller: string, ttlMs = 600_000): Promise<RedisExpectations> => {
    const store = withoutToken(redis, controller, ttlMs);
    await store.takeFencingTokens([0]);
    return store;
  };

  describe("follows upstream's rules", () => {
    itBehavesLikeExpectations(() => withToken(shared, uniqueName('it-rc')));
  });

  it('given 50 expected creations, when each is observed twice at once from 5 connections (live and replayed), then each counts once and none is lost', async () => {
    const controller = uniqueName('it-rc');
    const replicas = Array.from({ length: 5 }, () => withoutToken(connect(), controller));
    const pods = Array.from({ length: 50 }, (_, i) => `ns/pod-${i}`);
    await (await withToken(shared, controller)).set('ns/rc', { type: 'ExpectCreations', objectKeys: pods });
    await Promise.all([...pods.slice(1), ...pods.slice(1)].map((pod, i) => replicas[i % 5]!.lower('ns/rc', [pod], [])));
    assert.deepEqual(await shared.smembers(`${recordKey(controller, 'ns/rc')}:creates`), ['ns/pod-0']);
    assert.equal((await replicas[1]!.view('ns/rc')).satisfied, false);
    await replicas[2]!.lower('ns/rc', ['ns/pod-0'], []);
    assert.deepEqual(await replicas[3]!.view('ns/rc'), { satisfied: true, pendingCreates: [], pendingDeletes: [] });
  });

  it('given 20 expected deletions, when each is observed twice at once (terminating, then gone), then each counts once', async () => {
    const controller = uniqueName('it-rc');
    const replicas = Array.from({ length: 5 }, () => withoutToken(connect(), controller));
    const pods = Array.from({ length: 20 }, (_, i) => `ns/pod-${i}`);
    await (await withToken(shared, controller)).set('ns/rc', { type: 'ExpectDeletions', objectKeys: pods });
    await Promise.all([...pods, ...pods].map((pod, i) => replicas[i % 5]!.lower('ns/rc', [], [pod])));
    assert.equal(await shared.scard(`${recordKey(controller, 'ns/rc')}:deletes`), 0);
    assert.deepEqual(await replicas[4]!.view('ns/rc'), { satisfied: true, pendingCreates: [], pendingDeletes: [] });
  });

  it('given unfulfilled expectations with a 1 s TTL, then they expire: the key is satisfied and Redis drops the record', async () => {
    const controller = uniqueName('it-rc');
    const store = await withToken(shared, controller, 1000);
    await store.set('ns/rc', { type: 'ExpectDeletions', objectKeys: ['ns/a'] });
    assert.deepEqual(await store.view('ns/rc'), { satisfied: false, pendingCreates: [], pendingDeletes: ['ns/a'] });
    await waitFor('the expectations to expire', async () => (await store.view('ns/rc')).satisfied, {
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    await waitFor(
      'Redis to drop the record',
      async () =>
        (await shared.exists(
          recordKey(controller, 'ns/rc'),
          `${recordKey(controller, 'ns/rc')}:creates`,
          `${recordKey(controller, 'ns/rc')}:deletes`,
        )) === 0,
      { timeoutMs: 10_000, intervalMs: 100 },
    );
  });

  it('given a replica that set expectations and went away, then a restarted replica sees and finishes them', async () => {
    const controller = uniqueName('it-rc');
    const first = connect();
    const before = await withToken(first, controller);
    await before.set('ns/rc', { type: 'ExpectDeletions', objectKeys: ['ns/a', 'ns/b'] });
    await before.lower('ns/rc', [], ['ns/a']);
    await first.quit();
    const restarted = await withToken(connect(), controller);
    assert.deepEqual(await restarted.view('ns/rc'), { satisfied: false, pendingCreates: [], pendingDeletes: ['ns/b'] });
    await restarted.lower('ns/rc', [], ['ns/a']);
    assert.equal((await restarted.view('ns/rc')).satisfied, false);
    await restarted.lower('ns/rc', [], ['ns/b']);
    assert.deepEqual(await restarted.view('ns/rc'), { satisfied: true, pendingCreates: [], pendingDeletes: [] });
  });

  it('given two controllers with the same key, then their records do not collide', async () => {
    const rc = await withToken(shared, uniqueName('it-rc'));
    const rs = await withToken(shared, uniqueName('it-rs'));
    await rc.set('ns/x', { type: 'ExpectCreations', objectKeys: ['ns/p'] });
    assert.equal((await rs.view('ns/x')).satisfied, true);
    await rs.lower('ns/x', ['ns/p'], []);
    assert.equal((await rc.view('ns/x')).satisfied, false);
  });

  describe('fences a member that lost its partition (a zombie mid-sync)', () => {
    const pending = (creates: string[]): object => ({ satisfied: false, pendingCreates: creates, pendingDeletes: [] });

    it("given a newer member took the partition's fencing token, then the older one's set and delete are refused and change nothing; its observations still count", async () => {
      const controller = uniqueName('it-rc');
      const zombie = await withToken(connect(), controller);
      const owner = await withToken(connect(), controller);
      await owner.set('ns/rc', { type: 'ExpectCreations', objectKeys: ['ns/a', 'ns/b'] });
      await assert.rejects(zombie.set('ns/rc', { type: 'ExpectCreations', objectKeys: ['ns/z'] }), FencedError);
      await assert.rejects(zombie.delete('ns/rc'), FencedError);
      assert.deepEqual(await owner.view('ns/rc'), pending(['ns/a', 'ns/b']));
      await zombie.lower('ns/rc', ['ns/a'], []);
      assert.deepEqual(await owner.view('ns/rc'), pending(['ns/b']));
    });

    it("given a member without a fencing token of the key's partition, then its set is refused before reaching Redis", async () => {
      await assert.rejects(
        withoutToken(shared, uniqueName('it-rc')).set('ns/rc', { type: 'ExpectCreations', objectKeys: ['ns/a'] }),
        /no fencing token/,
      );
    });

    it('given the fence lost (a Redis flush), then the newest fencing token still wins once both members write again', async () => {
      const controller = uniqueName('it-rc');
      const older = await withToken(connect(), controller);
      const newer = await withToken(connect(), controller);
      await shared.del(`kcm-bus:exp:{${controller}:0}:fence`);
      await older.set('ns/rc', { type: 'ExpectCreations', objectKeys: ['ns/old'] });
      await newer.set('ns/rc', { type: 'ExpectCreations', objectKeys: ['ns/new'] });
      await assert.rejects(older.set('ns/rc', { type: 'ExpectCreations', objectKeys: ['ns/old'] }), FencedError);
      assert.deepEqual(await newer.view('ns/rc'), pending(['ns/new']));
      const latest = await withToken(connect(), controller);
      await assert.rejects(newer.delete('ns/rc'), FencedError);
      await latest.delete('ns/rc');
    });
  });
});
