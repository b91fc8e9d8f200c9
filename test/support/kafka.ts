import { kafkaClient } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { waitFor } from './wait.ts';

/**
 * produceAndConsume sends values through a fresh single-partition topic with an idempotent producer
 * (acks=all) and reads them back as a member of a new consumer group.
 */
export async function produceAndConsume(bootstrap: string, topic: string, values: readonly string[]): Promise<string[]> {
  const kafka = kafkaClient({ brokers: [bootstrap], clientId: 'kcm-bus-it' });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
  await admin.disconnect();
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  await producer.send({ topic, acks: -1, messages: values.map((value, i) => ({ key: String(i), value })) });
  await producer.disconnect();
  const consumer = kafka.consumer({ groupId: `${topic}-group` });
  const received: string[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => void received.push(message.value?.toString() ?? '') });
  try {
    await waitFor(`${values.length} records`, () => received.length >= values.length, { timeoutMs: 60_000 });
  } finally {
    await consumer.disconnect();
  }
  return received;
}
