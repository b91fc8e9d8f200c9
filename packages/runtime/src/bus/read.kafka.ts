import { randomUUID } from 'node:crypto';
import type { Kafka, KafkaMessage } from 'kafkajs';

/**
 * readToEnd reads every committed record of a topic from the beginning up to the end it has now, in
 * order per partition, and returns when each partition is read. It joins a throwaway consumer group
 * (kafkajs has no manual assignment) that it deletes afterwards.
 */
export async function readToEnd(kafka: Kafka, topic: string, onRecord: (message: KafkaMessage, partition: number) => Promise<void> | void): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  const groupId = `kcm-bus-read-${randomUUID()}`;
  try {
    const ends = new Map((await admin.fetchTopicOffsets(topic)).filter((p) => BigInt(p.high) > BigInt(p.low)).map((p) => [p.partition, BigInt(p.high)]));
    if (ends.size > 0) await consumeUntil(kafka, groupId, topic, ends, onRecord);
  } finally {
    await admin.deleteGroups([groupId]).catch(() => undefined);
    await admin.disconnect();
  }
}

async function consumeUntil(kafka: Kafka, groupId: string, topic: string, ends: Map<number, bigint>,
  onRecord: (message: KafkaMessage, partition: number) => Promise<void> | void): Promise<void> {
  const consumer = kafka.consumer({ groupId, readUncommitted: false });
  let finish: (err?: unknown) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => (finish = (err) => (err ? reject(err) : resolve())));
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        for (const message of batch.messages) await onRecord(message, batch.partition);
        const end = ends.get(batch.partition);
        if (end !== undefined && BigInt(batch.lastOffset()) >= end - 1n) ends.delete(batch.partition);
        if (ends.size === 0) finish();
      },
    });
    consumer.on(consumer.events.CRASH, (e) => finish(e.payload.error));
    await done;
  } finally {
    await consumer.disconnect();
  }
}
