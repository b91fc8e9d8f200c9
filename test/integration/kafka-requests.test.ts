import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { busFlags, testStack, uniqueName } from '../support/stack.ts';
import { metricValue, startService, stopAllServices } from '@kcm-bus/harness/processes.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const stack = testStack();

describe('kcm_bus_kafka_requests_total and kcm_bus_kafka_group_joins_total: what a service asks of the broker', () => {
  after(stopAllServices);

  it('given a bus told of requests, when two transactions are published, then each is an AddPartitionsToTxn (or more), a Produce and an EndTxn, and the coordinator is not looked up again', async () => {
    const counts = new Map<string, number>();
    const bus = kafkaBus({
      brokers: stack.kafkaBrokers,
      clientId: 'kcm-bus-test-requests',
      taps: { request: (api) => counts.set(api, (counts.get(api) ?? 0) + 1) },
    });
    const topic = uniqueName('kcm.test.requests');
    await bus.ensureTopics([{ topic, partitions: 1, configs: {} }]);
    const publisher = await bus.transactionalPublisher(uniqueName('kcm-bus-test-requests'));
    const before = new Map(counts);
    try {
      await publisher.send(topic, [{ key: 'k', value: Buffer.from('v') }]);
      await publisher.send(topic, [{ key: 'k', value: Buffer.from('w') }]);
    } finally {
      await publisher.close();
      await bus.deleteTopics([topic]);
    }
    const sent = (api: string): number => (counts.get(api) ?? 0) - (before.get(api) ?? 0);
    assert.deepEqual(['Produce', 'EndTxn', 'GroupCoordinator'].map(sent), [2, 2, 0], JSON.stringify([...counts]));
    // the second transaction, begun right after the first commit, may meet CONCURRENT_TRANSACTIONS and ask again
    assert.ok(sent('AddPartitionsToTxn') >= 2, JSON.stringify([...counts]));
    assert.ok(
      (counts.get('InitProducerId') ?? 0) >= 1,
      `InitProducerId counted when the publisher opened: ${JSON.stringify([...counts])}`,
    );
  });

  it("given a bus told of group joins, when a one-member group reads a topic, then its join is told once, under the group's name without its random suffix", async () => {
    const joins: string[] = [];
    const bus = kafkaBus({
      brokers: stack.kafkaBrokers,
      clientId: 'kcm-bus-test-joins',
      taps: { groupJoin: (group) => joins.push(group) },
    });
    const topic = uniqueName('kcm.test.joins');
    await bus.ensureTopics([{ topic, partitions: 1, configs: {} }]);
    const publisher = await bus.publisher();
    try {
      await publisher.send(topic, [{ key: 'k', value: Buffer.from('v') }]);
      let read = 0;
      await bus.readToEnd(topic, () => void read++);
      assert.equal(read, 1);
    } finally {
      await publisher.close();
      await bus.deleteTopics([topic]);
    }
    assert.deepEqual(joins, ['kcm-bus-read']);
  });

  it('given a running watcher, then its /metrics counts its transactions (EndTxn) and the requests that carry them', async () => {
    const watcher = await startService('watcher', [
      ...busFlags(stack),
      '--kubeconfig',
      stack.kubeconfigs.watcher,
      '--partitions',
      '3',
    ]);
    const endTxn = await waitFor('the watcher to commit a transaction', async () => {
      const n = await metricValue(watcher, 'kcm_bus_kafka_requests_total', { api: 'EndTxn' });
      return n > 0 && n;
    });
    assert.ok(
      (await metricValue(watcher, 'kcm_bus_kafka_requests_total', { api: 'Produce' })) >= endTxn - 6,
      'a Produce for every transaction (those of the kinds still opening aside)',
    );
  });
});
