import type { Bus } from '@kcm-bus/runtime/bus/index.ts';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/index.ts';
import { httpSchemaRegistry } from '@kcm-bus/runtime/registry/registry.http.ts';
import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';

/** testBus is the bus as the tests' readers reach it. */
function testBus(stack: StackEndpoints): Bus {
  return kafkaBus({ brokers: stack.kafkaBrokers, clientId: 'kcm-bus-test-reader' });
}

/** TopicRecord is one record of a topic as a test sees it: value decoded, null for a tombstone. */
export type TopicRecord = {
  readonly partition: number;
  readonly offset: string;
  readonly key: string;
  readonly raw: Buffer | null;
  readonly value: {
    readonly type: string;
    readonly key: string;
    readonly resourceVersion: string;
    readonly observedAt?: string;
    readonly object?: Record<string, unknown>;
  } | null;
};

/**
 * readTopic reads a whole topic (committed records), decoding values with the schemas the registry holds.
 * A value that does not decode is left out, as every consumer of ours leaves it: the fuzz test puts such
 * records on every input topic of the shared test stack, and a record a service wrote that did not decode
 * would still fail the test waiting for it.
 */
export async function readTopic(stack: StackEndpoints, topic: string): Promise<TopicRecord[]> {
  const serde = new Serde(httpSchemaRegistry(stack.registry), topic, undefined, (s) => new AvroCodec(s));
  const records: TopicRecord[] = [];
  await testBus(stack).readToEnd(topic, async (record, partition) => {
    const value =
      record.value === null
        ? null
        : await serde.decode(record.value).then(
            (d) => d.value as TopicRecord['value'],
            () => undefined,
          );
    if (value !== undefined)
      records.push({ partition, offset: record.offset, key: record.key?.toString() ?? '', raw: record.value, value });
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
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k, v]) => v !== null && v !== undefined && k !== 'managedFields')
      .map(([k, v]) => [k, normalize(v)]),
  );
}

/** RawRecord is a record with its value bytes and headers as they are. */
export type RawRecord = {
  readonly key: string;
  readonly value: Buffer | null;
  readonly headers: Readonly<Record<string, string>>;
};

/** readRaw reads a whole topic without decoding values (for dead letters, which may be anything). */
export async function readRaw(stack: StackEndpoints, topic: string): Promise<RawRecord[]> {
  const records: RawRecord[] = [];
  await testBus(stack).readToEnd(
    topic,
    (r) => void records.push({ key: r.key?.toString() ?? '', value: r.value, headers: r.headers }),
  );
  return records;
}

/** topicNames are every topic of the stack's Kafka, internal ones included. */
export function topicNames(stack: StackEndpoints): Promise<readonly string[]> {
  return testBus(stack).topics();
}
