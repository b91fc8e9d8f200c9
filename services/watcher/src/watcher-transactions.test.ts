import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PublisherFencedError, type Bus, type TransactionalPublisher } from '@kcm-bus/runtime/bus/bus.ts';
import type { TopicRecords } from '@kcm-bus/runtime/bus/produce-limits.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { openWatcherTransactions, watcherTransactionalId } from './watcher-transactions.ts';

const record = (key: string): TopicRecords['records'][number] => ({ key, value: Buffer.from(key) });

/** busOver is a Bus whose one transactional publisher hands each transaction to sendTopics and remembers its id. */
function busOver(sendTopics: TransactionalPublisher['sendTopics']): { bus: Bus; ids: string[] } {
  const ids: string[] = [];
  const publisher: TransactionalPublisher = { send: async () => undefined, sendTopics, close: async () => undefined };
  const bus = { transactionalPublisher: async (id: string) => (ids.push(id), publisher) } as unknown as Bus;
  return { bus, ids };
}

describe('watcher transactions', () => {
  it('given the kinds watched in any order, then the transactional id names them sorted: the same kinds fence each other', () => {
    const id = watcherTransactionalId(['pods', 'nodes'].map(watchedKind));
    assert.equal(id, 'kcm-bus-watcher-nodes.pods');
    assert.equal(watcherTransactionalId(['nodes', 'pods'].map(watchedKind)), id);
    assert.notEqual(watcherTransactionalId(['pods'].map(watchedKind)), id);
  });

  it('given every kind publishes its watermark in one turn, then one transaction carries them all', async () => {
    const sent: string[][] = [];
    const { bus, ids } = busOver(async (batches) => void sent.push(batches.map((b) => b.topic)));
    const transactions = await openWatcherTransactions(bus, ['pods', 'nodes', 'services'].map(watchedKind), 0, Date.now);
    await Promise.all(['pods', 'nodes', 'services'].map((t) => transactions.send([{ topic: t, records: [record('~watermark')] }])));
    assert.deepEqual(ids, ['kcm-bus-watcher-nodes.pods.services']);
    assert.deepEqual(sent, [['pods', 'nodes', 'services']]);
  });

  it('given a shared transaction one kind\'s records make fail, then the others are published alone and only that kind fails', async () => {
    const sent: string[][] = [];
    const { bus } = busOver(async (batches) => {
      sent.push(batches.map((b) => b.topic));
      if (batches.some((b) => b.topic === 'pods')) throw new Error('MESSAGE_TOO_LARGE');
    });
    const transactions = await openWatcherTransactions(bus, ['pods', 'nodes'].map(watchedKind), 0, Date.now);
    const [pods, nodes] = await Promise.allSettled(['pods', 'nodes'].map((t) => transactions.send([{ topic: t, records: [record('k')] }])));
    assert.deepEqual([pods?.status, nodes?.status], ['rejected', 'fulfilled']);
    assert.deepEqual(sent, [['pods', 'nodes'], ['pods'], ['nodes']]);
  });

  it('given the publisher was fenced, then every kind\'s publication fails at once, none tried again', async () => {
    let sends = 0;
    const { bus } = busOver(async () => {
      sends++;
      throw new PublisherFencedError('taken over');
    });
    const transactions = await openWatcherTransactions(bus, ['pods', 'nodes'].map(watchedKind), 0, Date.now);
    const results = await Promise.allSettled(['pods', 'nodes'].map((t) => transactions.send([{ topic: t, records: [record('k')] }])));
    assert.deepEqual(results.map((r) => r.status), ['rejected', 'rejected']);
    assert.equal(sends, 1);
  });

  it('given a transaction just ended, then the next begins no sooner than the transaction gap after it', async () => {
    const starts: number[] = [];
    const { bus } = busOver(async () => void starts.push(performance.now()));
    const transactions = await openWatcherTransactions(bus, ['pods'].map(watchedKind), 30, Date.now);
    await transactions.send([{ topic: 'pods', records: [record('1')] }]);
    await transactions.send([{ topic: 'pods', records: [record('2')] }]);
    assert.ok(starts[1]! - starts[0]! >= 25, `the second began ${starts[1]! - starts[0]!} ms after the first`);
  });
});
