import type { Kafka, Message } from 'kafkajs';
import type { OutgoingRecord, Publisher, TransactionalPublisher } from './bus.ts';
import { namespacePartitioner } from './partitioner.kafka.ts';
import { requestsUnderLimit, type TopicRecords } from './produce-limits.ts';

/** ENDLESS_RETRIES retry a send until it succeeds, backing off up to 10 s: an idempotent producer loses nothing by waiting. */
const ENDLESS_RETRIES = { retries: Number.MAX_SAFE_INTEGER, maxRetryTime: 10_000 } as const;

/** messageOf is a record as kafkajs sends it; one without a partition is placed by the namespace partitioner. */
function messageOf(r: OutgoingRecord): Message {
  return { key: r.key, value: r.value, ...(r.partition === undefined ? {} : { partition: r.partition }), ...(r.headers ? { headers: { ...r.headers } } : {}) };
}

/** topicMessages is one produce request in kafkajs's terms. */
function topicMessages(request: readonly TopicRecords[]): { topic: string; messages: Message[] }[] {
  return request.map((b) => ({ topic: b.topic, messages: b.records.map(messageOf) }));
}

/**
 * kafkaPublisher is an idempotent producer with one request in flight (so retries keep the order) and endless
 * retries; every send waits for acks from all in-sync replicas, split into requests under the broker's limit.
 */
export async function kafkaPublisher(kafka: Kafka): Promise<Publisher> {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: namespacePartitioner, retry: ENDLESS_RETRIES });
  await producer.connect();
  const sendTopics: Publisher['sendTopics'] = async (batches) => {
    for (const request of requestsUnderLimit(batches)) await producer.sendBatch({ acks: -1, topicMessages: topicMessages(request) });
  };
  return { send: (topic, records) => sendTopics([{ topic, records }]), sendTopics, close: () => producer.disconnect() };
}

/**
 * kafkaTransactionalPublisher connects a transactional producer and aborts an empty transaction, which fences any
 * older producer of the same transactional id: a zombie's next transaction is rejected. Each send is one transaction.
 */
export async function kafkaTransactionalPublisher(kafka: Kafka, transactionalId: string): Promise<TransactionalPublisher> {
  const producer = kafka.producer({
    transactionalId, idempotent: true, maxInFlightRequests: 1, createPartitioner: namespacePartitioner, transactionTimeout: 60_000,
    // initialRetryTime 20 ms, not kafkajs's 100: a transaction begun right after the last commit meets
    // CONCURRENT_TRANSACTIONS and waits out the backoff (kafkajs#304; the Java client lowered it to 20 ms, KAFKA-5477).
    // S8 measured 100-700 ms watcher→Kafka tails with 100 ms, 45 ms worst case with 20 ms.
    retry: { ...ENDLESS_RETRIES, initialRetryTime: 20 },
  });
  await producer.connect();
  await (await producer.transaction()).abort();
  const sendTopics: TransactionalPublisher['sendTopics'] = async (batches) => {
    const txn = await producer.transaction();
    try {
      for (const request of requestsUnderLimit(batches)) await txn.sendBatch({ acks: -1, topicMessages: topicMessages(request) });
      await txn.commit();
    } catch (err) {
      await txn.abort().catch(() => undefined);
      throw err;
    }
  };
  return { send: (topic, records) => sendTopics([{ topic, records }]), sendTopics, close: () => producer.disconnect() };
}
