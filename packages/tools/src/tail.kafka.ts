import { randomUUID } from 'node:crypto';
import { kafkaClient, type KafkaMessage } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { readToEnd } from '@kcm-bus/runtime/bus/read.kafka.ts';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/serde.ts';
import { httpSchemaRegistry } from '@kcm-bus/runtime/registry/registry.http.ts';
import type { TailOptions } from './tail-options.ts';

/**
 * tail prints a kcm-bus topic as JSON lines ({topic, partition, offset, timestamp, key, value}), values
 * decoded with the schema each record names in the registry; a tombstone prints value null.
 */
export async function tail(opts: TailOptions, print: (line: string) => void): Promise<void> {
  const kafka = kafkaClient({ brokers: opts.brokers, clientId: 'kcm-bus-tail' });
  const serde = new Serde(httpSchemaRegistry(opts.registry), opts.topic, undefined, (s) => new AvroCodec(s));
  const show = async (message: KafkaMessage, partition: number): Promise<void> => {
    const key = message.key?.toString() ?? null;
    if (opts.key !== undefined && key !== opts.key) return;
    if (opts.since !== undefined && Number(message.timestamp) < opts.since) return;
    const value = message.value === null ? null : (await serde.decode(message.value)).value;
    print(JSON.stringify({ topic: opts.topic, partition, offset: message.offset, timestamp: new Date(Number(message.timestamp)).toISOString(), key, value }));
  };
  if (!opts.follow) return readToEnd(kafka, opts.topic, show);
  const consumer = kafka.consumer({ groupId: `kcm-bus-tail-${randomUUID()}`, readUncommitted: false });
  await consumer.connect();
  await consumer.subscribe({ topic: opts.topic, fromBeginning: opts.fromBeginning });
  await consumer.run({ autoCommit: false, eachMessage: ({ message, partition }) => show(message, partition) });
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await consumer.disconnect();
}
