import { kafkaClient } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { readToEnd } from '@kcm-bus/runtime/bus/read.kafka.ts';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/serde.ts';
import { httpSchemaRegistry } from '@kcm-bus/runtime/registry/registry.http.ts';
import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';

/** TopicRecord is one record of a topic as a test sees it: value decoded, null for a tombstone. */
export type TopicRecord = {
  readonly partition: number;
  readonly offset: string;
  readonly key: string;
  readonly raw: Buffer | null;
  readonly value: { readonly type: string; readonly key: string; readonly resourceVersion: string; readonly object?: Record<string, unknown> } | null;
};

/** readTopic reads a whole topic (committed records), decoding values with the schemas the registry holds. */
export async function readTopic(stack: StackEndpoints, topic: string): Promise<TopicRecord[]> {
  const kafka = kafkaClient({ brokers: [stack.kafkaBootstrap], clientId: 'kcm-bus-test-reader' });
  const serde = new Serde(httpSchemaRegistry(stack.registry), topic, undefined, (s) => new AvroCodec(s));
  const records: TopicRecord[] = [];
  await readToEnd(kafka, topic, async (message, partition) => {
    const value = message.value === null ? null : (await serde.decode(message.value)).value as TopicRecord['value'];
    records.push({ partition, offset: message.offset, key: message.key?.toString() ?? '', raw: message.value, value });
  });
  return records;
}

/** recordsOf keeps a key's records in topic order (one key lives on one partition). */
export function recordsOf(records: readonly TopicRecord[], key: string): TopicRecord[] {
  return records.filter((r) => r.key === key).sort((a, b) => Number(BigInt(a.offset) - BigInt(b.offset)));
}

/** normalize drops what a watch topic legitimately omits: managedFields (stripped) and nulls (absent alike). */
export function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value)
    .filter(([k, v]) => v !== null && v !== undefined && k !== 'managedFields')
    .map(([k, v]) => [k, normalize(v)]));
}

/** RawRecord is a record with its value bytes and headers as they are. */
export type RawRecord = { readonly key: string; readonly value: Buffer | null; readonly headers: Readonly<Record<string, string>> };

/** readRaw reads a whole topic without decoding values (for dead letters, which may be anything). */
export async function readRaw(stack: StackEndpoints, topic: string): Promise<RawRecord[]> {
  const kafka = kafkaClient({ brokers: [stack.kafkaBootstrap], clientId: 'kcm-bus-test-reader' });
  const records: RawRecord[] = [];
  await readToEnd(kafka, topic, (m) => void records.push({
    key: m.key?.toString() ?? '', value: m.value,
    headers: Object.fromEntries(Object.entries(m.headers ?? {}).map(([k, v]) => [k, String(v)])),
  }));
  return records;
}
