import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cacheTransactionCoordinators } from './coordinator-cache.kafka.ts';

type Found = { endTxn: () => Promise<string> };
type Args = { groupId: string; coordinatorType?: number };

/** FakeCluster stands for kafkajs's Cluster: each lookup is counted and finds a coordinator whose endTxn fails as told. */
class FakeCluster {
  lookups = 0;
  failWith: string | undefined;
  async findGroupCoordinator(_args: Args): Promise<Found> {
    this.lookups++;
    return {
      endTxn: async () => {
        if (this.failWith === undefined) return 'committed';
        throw Object.assign(new Error(this.failWith), { type: this.failWith });
      },
    };
  }
}
cacheTransactionCoordinators(FakeCluster as never);
const txn = (groupId: string): Args => ({ groupId, coordinatorType: 1 });

describe('kafkajs transaction coordinators, remembered', () => {
  it('given a transactional id looked up twice, then one FindCoordinator is sent and its coordinator answers both', async () => {
    const cluster = new FakeCluster();
    assert.equal(await (await cluster.findGroupCoordinator(txn('w-pods'))).endTxn(), 'committed');
    assert.equal(await (await cluster.findGroupCoordinator(txn('w-pods'))).endTxn(), 'committed');
    assert.equal(cluster.lookups, 1);
  });

  it('given two transactional ids, or a consumer group, then each is looked up on its own; groups every time, as kafkajs does', async () => {
    const cluster = new FakeCluster();
    await cluster.findGroupCoordinator(txn('w-pods'));
    await cluster.findGroupCoordinator(txn('w-nodes'));
    await cluster.findGroupCoordinator({ groupId: 'reconciler-rc', coordinatorType: 0 });
    await cluster.findGroupCoordinator({ groupId: 'reconciler-rc' });
    assert.equal(cluster.lookups, 4);
  });

  it('given a call that fails with NOT_COORDINATOR, then it still rejects, and the retry looks the coordinator up again', async () => {
    const cluster = new FakeCluster();
    cluster.failWith = 'NOT_COORDINATOR';
    await assert.rejects((await cluster.findGroupCoordinator(txn('w-pods'))).endTxn(), /NOT_COORDINATOR/);
    cluster.failWith = undefined;
    assert.equal(await (await cluster.findGroupCoordinator(txn('w-pods'))).endTxn(), 'committed');
    assert.equal(cluster.lookups, 2);
  });

  it('given a call that fails with CONCURRENT_TRANSACTIONS (the right coordinator, a transaction begun too soon), then the coordinator is kept', async () => {
    const cluster = new FakeCluster();
    cluster.failWith = 'CONCURRENT_TRANSACTIONS';
    await assert.rejects((await cluster.findGroupCoordinator(txn('w-pods'))).endTxn(), /CONCURRENT_TRANSACTIONS/);
    await cluster.findGroupCoordinator(txn('w-pods'));
    assert.equal(cluster.lookups, 1);
  });
});
