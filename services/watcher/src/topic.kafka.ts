import type { Kafka, Message } from 'kafkajs';
import { namespacePartitioner } from '@kcm-bus/runtime/bus/partitioner.kafka.ts';
import { readToEnd } from '@kcm-bus/runtime/bus/read.kafka.ts';
import type { Serde } from '@kcm-bus/runtime/codec/serde.ts';
import { newerVersion, type KubeObject, type WatchEvent } from './events.ts';
import { PublishedState } from './store.ts';

/** KindTopic is one kind's topic as the watcher writes it: fenced transactions, and the state it holds. */
export type KindTopic = {
  readonly publish: (events: readonly WatchEvent[]) => Promise<void>;
  readonly close: () => Promise<void>;
};

/**
 * openKindTopic connects the kind's transactional producer. Its transactional id is fixed per kind, so
 * initialising it fences any older watcher of the kind: a zombie's next transaction is rejected.
 * Every batch is one transaction: a Deleted record is followed by the key's tombstone; a watermark goes
 * to every partition.
 */
export async function openKindTopic(kafka: Kafka, topic: string, partitions: number, serde: Serde,
  onUnknown: (path: string) => void): Promise<KindTopic> {
  const producer = kafka.producer({
    transactionalId: `kcm-bus-watcher-${topic}`, idempotent: true, maxInFlightRequests: 1,
    createPartitioner: namespacePartitioner, transactionTimeout: 60_000,
    // initialRetryTime 20 ms, not kafkajs's 100: a transaction begun right after the last commit meets
    // CONCURRENT_TRANSACTIONS and waits out the backoff (kafkajs#304; the Java client lowered it to 20 ms, KAFKA-5477).
    // S8 measured 100-700 ms watcher→Kafka tails with 100 ms, 45 ms worst case with 20 ms.
    retry: { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 20, maxRetryTime: 10_000 },
  });
  await producer.connect();
  await (await producer.transaction()).abort();
  const encode = async (event: WatchEvent): Promise<Buffer> => {
    const { bytes, unknownPaths } = await serde.encode(event);
    for (const path of unknownPaths) onUnknown(path.replace(/^object\./, ''));
    return bytes;
  };
  return {
    async publish(events) {
      const messages: Message[] = [];
      for (const event of events) {
        const value = await encode(event);
        if (event.type === 'Watermark') for (let p = 0; p < partitions; p++) messages.push({ key: event.key, value, partition: p });
        else messages.push({ key: event.key, value }, ...(event.type === 'Deleted' ? [{ key: event.key, value: null }] : []));
      }
      const txn = await producer.transaction();
      try {
        await txn.send({ topic, acks: -1, messages });
        await txn.commit();
      } catch (err) {
        await txn.abort().catch(() => undefined);
        throw err;
      }
    },
    close: () => producer.disconnect(),
  };
}

/** Restored is what a kind's topic says was published: live objects, and the resourceVersion to resume from. */
export type Restored = { readonly state: PublishedState; readonly resumeFrom: string | undefined; readonly records: number };

/** restoreKind reads a kind's topic from the beginning to rebuild what was published (after a restart). */
export async function restoreKind(kafka: Kafka, topic: string, serde: Serde): Promise<Restored> {
  const state = new PublishedState();
  let resumeFrom: string | undefined;
  let records = 0;
  await readToEnd(kafka, topic, async (message) => {
    records++;
    const key = message.key?.toString() ?? '';
    if (message.value === null) return state.apply('Deleted', key, {});
    const event = (await serde.decode(message.value)).value as WatchEvent;
    if (newerVersion(event.resourceVersion, resumeFrom)) resumeFrom = event.resourceVersion;
    if (event.type !== 'Watermark') state.apply(event.type, key, event.object as KubeObject);
  });
  return { state, resumeFrom, records };
}
