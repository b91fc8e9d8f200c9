import type { Kafka, Message, Producer, RecordMetadata } from 'kafkajs';
import { causeChain } from '../faults/record-fault.ts';
import {
  PublisherFencedError,
  type OutgoingRecord,
  type ProducedOffsets,
  type Publisher,
  type TransactionalPublisher,
} from './bus.ts';
import { namespacePartitioner } from './partitioner.kafka.ts';
import { ProducerSlot } from './producer-slot.ts';
import { requestsUnderLimit, type TopicRecords } from './produce-limits.ts';

/**
 * ENDLESS_RETRIES retry a send until it succeeds (an idempotent producer loses nothing by waiting), backing off up to
 * 1 s: a partition whose leader died has a new one once the controller fences the broker, and a producer backing off
 * up to 10 s found it up to 10 s late (the chaos run's broker kill settled in 33.3 s on one broker, 21.1 s on three;
 * at 1 s, 18.0 s and 14.8 s).
 */
const ENDLESS_RETRIES = { retries: Number.MAX_SAFE_INTEGER, maxRetryTime: 1_000 } as const;

/** messageOf is a record as kafkajs sends it; one without a partition is placed by the namespace partitioner. */
function messageOf(r: OutgoingRecord): Message {
  return {
    key: r.key,
    value: r.value,
    ...(r.partition === undefined ? {} : { partition: r.partition }),
    ...(r.headers ? { headers: { ...r.headers } } : {}),
  };
}

/** topicMessages is one produce request in kafkajs's terms. */
function topicMessages(request: readonly TopicRecords[]): { topic: string; messages: Message[] }[] {
  return request.map((b) => ({ topic: b.topic, messages: b.records.map(messageOf) }));
}

/**
 * namedCounts counts, per partition, the records of one produce request that name it; a partition that also got
 * records placed by the partitioner is left out (their count is the client's to know).
 */
function namedCounts(request: readonly TopicRecords[]): Map<string, number> {
  const counts = new Map<string, number>();
  const placed = new Set(request.filter((b) => b.records.some((r) => r.partition === undefined)).map((b) => b.topic));
  for (const b of request) {
    if (placed.has(b.topic)) continue;
    for (const r of b.records)
      counts.set(`${b.topic}/${r.partition}`, (counts.get(`${b.topic}/${r.partition}`) ?? 0) + 1);
  }
  return counts;
}

/** producedOffsets are a request's last offsets per named partition: the broker's base offset of its batch plus its count. */
function producedOffsets(request: readonly TopicRecords[], metadata: readonly RecordMetadata[]): ProducedOffsets {
  const counts = namedCounts(request);
  return metadata.flatMap((m) => {
    const count = counts.get(`${m.topicName}/${m.partition}`);
    return count === undefined || m.baseOffset === undefined
      ? []
      : [{ topic: m.topicName, partition: m.partition, lastOffset: String(BigInt(m.baseOffset) + BigInt(count) - 1n) }];
  });
}

/** sendRequests sends a send's produce requests one after the other, in order, and gathers their last offsets. */
async function sendRequests(
  batches: readonly TopicRecords[],
  send: (request: TopicRecords[]) => Promise<RecordMetadata[]>,
): Promise<ProducedOffsets> {
  const last = new Map<string, ProducedOffsets[number]>();
  for (const request of requestsUnderLimit(batches)) {
    for (const o of producedOffsets(request, await send(request))) last.set(`${o.topic}/${o.partition}`, o);
  }
  return [...last.values()];
}

/**
 * kafkaPublisher is an idempotent producer with one request in flight (so retries keep the order) and endless
 * retries; every send waits for acks from all in-sync replicas, split into requests under the broker's limit. A send
 * that fails drops its producer, and the next send opens a new one (ProducerSlot says why).
 */
export async function kafkaPublisher(kafka: Kafka): Promise<Publisher> {
  const slot = new ProducerSlot(() =>
    connected(
      kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: namespacePartitioner,
        retry: ENDLESS_RETRIES,
      }),
    ),
  );
  await slot.ready();
  const sendTopics: Publisher['sendTopics'] = (batches) =>
    slot.use((producer) =>
      sendRequests(batches, (request) => producer.sendBatch({ acks: -1, topicMessages: topicMessages(request) })),
    );
  return { send: (topic, records) => sendTopics([{ topic, records }]), sendTopics, close: () => slot.close() };
}

/**
 * kafkaTransactionalPublisher connects a transactional producer and aborts an empty transaction, which fences any
 * older producer of the same transactional id: a zombie's next transaction is rejected (PublisherFencedError).
 * Each send is one transaction. A send that fails otherwise drops its producer, and the next send opens a new one
 * (a new producer session: kafkajs's transaction state does not survive a broker that went away mid-transaction).
 */
export async function kafkaTransactionalPublisher(
  kafka: Kafka,
  transactionalId: string,
): Promise<TransactionalPublisher> {
  const slot = new ProducerSlot(() => openTransactional(kafka, transactionalId));
  await slot.ready();
  const sendTopics: TransactionalPublisher['sendTopics'] = async (batches) => {
    try {
      return await slot.use((producer) => inTransaction(producer, batches), producerFenced);
    } catch (err) {
      if (!producerFenced(err)) throw err;
      throw new PublisherFencedError(`transactional id ${transactionalId} was taken over by a newer publisher`, {
        cause: err,
      });
    }
  };
  return { send: (topic, records) => sendTopics([{ topic, records }]), sendTopics, close: () => slot.close() };
}

/** connected is the producer once connected; one that could not connect is let go. */
async function connected(producer: Producer): Promise<Producer> {
  try {
    await producer.connect();
    return producer;
  } catch (err) {
    await producer.disconnect().catch(() => undefined);
    throw err;
  }
}

async function openTransactional(kafka: Kafka, transactionalId: string): Promise<Producer> {
  const producer = kafka.producer({
    transactionalId,
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: namespacePartitioner,
    transactionTimeout: 60_000,
    // initialRetryTime 2 ms, not kafkajs's 100: a transaction begun right after the last commit meets
    // CONCURRENT_TRANSACTIONS until the broker has written the commit's markers, and waits out the backoff
    // (kafkajs#304; the Java client lowered it to 20 ms, KAFKA-5477). S8 measured 100-700 ms watcher→Kafka tails
    // with 100 ms, 45 ms worst case with 20 ms; S4's watcher hop went from p50 7 / p99 50 ms at 20 ms to 5 / 19 at 2.
    retry: { ...ENDLESS_RETRIES, initialRetryTime: 2 },
  });
  await connected(producer);
  try {
    await (await producer.transaction()).abort();
    return producer;
  } catch (err) {
    await producer.disconnect().catch(() => undefined);
    throw err;
  }
}

async function inTransaction(
  producer: Producer,
  batches: Parameters<TransactionalPublisher['sendTopics']>[0],
): Promise<ProducedOffsets> {
  const txn = await producer.transaction();
  try {
    const offsets = await sendRequests(batches, (request) =>
      txn.sendBatch({ acks: -1, topicMessages: topicMessages(request) }),
    );
    await txn.commit();
    return offsets;
  } catch (err) {
    await txn.abort().catch(() => undefined);
    throw err;
  }
}

/**
 * FENCED_TYPES are the broker's answers to a producer whose epoch a newer one of its transactional id bumped:
 * INVALID_PRODUCER_EPOCH (47), and PRODUCER_FENCED (90), which kafkajs does not name.
 */
const FENCED_TYPES = new Set(['INVALID_PRODUCER_EPOCH', 'PRODUCER_FENCED']);

/** producerFenced tells whether a failed send was fenced: reopening would fence the newer publisher in turn. */
export function producerFenced(err: unknown): boolean {
  return causeChain(err).some((e) => {
    const { type, message } = e as { type?: unknown; message: string };
    return (typeof type === 'string' && FENCED_TYPES.has(type)) || message === 'Unknown error code 90';
  });
}
