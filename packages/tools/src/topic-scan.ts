import type { Bus, BusRecord } from '@kcm-bus/runtime/bus/index.ts';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/index.ts';
import { namespacePartitionKey, partitionFor } from '@kcm-bus/runtime/partition/index.ts';
import { connect, type Connection } from './connection-options.ts';

/** Progress receives a line about a long scan (the CLI prints it on stderr). */
export type Progress = (line: string) => void;

/** PROGRESS_INTERVAL_MS is how often a scan still running says where it is. */
const PROGRESS_INTERVAL_MS = 2000;

/** Scanner reads kcm-bus topics for a tool: the bus, a decoder of any value by the schema it names, and where progress goes. */
export type Scanner = {
  readonly bus: Pick<Bus, 'offsets' | 'readToEnd'>;
  readonly decode: (value: Buffer) => Promise<unknown>;
  readonly progress: Progress;
};

/** openScanner connects a Scanner to a kcm-bus Kafka and its schema registry (nothing is connected until a scan). */
export function openScanner(connection: Connection, clientId: string, progress: Progress): Scanner {
  const { bus, registry } = connect(connection, clientId);
  const serde = new Serde(registry, 'any', undefined, (s) => new AvroCodec(s));
  return { bus, decode: async (value) => (await serde.decode(value)).value, progress };
}

/**
 * keyPartition is the partition every kcm-bus producer gives a record keyed `key` (the namespace partitioner: Java
 * murmur2 of the namespace of `namespace/name`, of the whole key for a cluster-scoped object).
 */
export function keyPartition(key: string, partitions: number): number {
  return partitionFor(namespacePartitionKey(key), partitions);
}

/**
 * scanPartition reads one partition of a topic from its beginning to the end it had when the scan began (so it
 * terminates) and hands onRecord the records `select` keeps; select sees the key's bytes and the offset only, so
 * nothing it skips is decoded. A scan still running says every 2 s how far it got.
 */
export async function scanPartition(
  s: Scanner,
  topic: string,
  partition: number,
  select: (key: Buffer | null, offset: bigint) => boolean,
  onRecord: (record: BusRecord) => Promise<void>,
): Promise<void> {
  const marks = (await s.bus.offsets(topic)).find((p) => p.partition === partition);
  if (!marks) throw new Error(`${topic} has no partition ${partition}`);
  let reached = marks.low;
  const timer = setInterval(
    () => s.progress(`${topic}[${partition}]: offset ${reached}/${marks.high}`),
    PROGRESS_INTERVAL_MS,
  );
  try {
    await s.bus.readToEnd(
      topic,
      async (record) => {
        reached = record.offset;
        if (select(record.key, BigInt(record.offset))) await onRecord(record);
      },
      [partition],
    );
  } finally {
    clearInterval(timer);
  }
}

/**
 * scanKeys reads every record of the given keys in a topic: each key's partition once (keys sharing one are read
 * together), keys compared as bytes before anything is decoded. onRecord gets each record with its partition.
 */
export async function scanKeys(
  s: Scanner,
  topic: string,
  keys: Iterable<string>,
  onRecord: (record: BusRecord & { readonly key: Buffer }, partition: number) => Promise<void>,
): Promise<void> {
  const count = (await s.bus.offsets(topic)).length;
  const byPartition = new Map<number, Buffer[]>();
  for (const key of new Set(keys)) {
    const p = keyPartition(key, count);
    byPartition.set(p, [...(byPartition.get(p) ?? []), Buffer.from(key)]);
  }
  for (const [partition, wanted] of byPartition) {
    await scanPartition(
      s,
      topic,
      partition,
      (key) => key !== null && wanted.some((w) => w.equals(key)),
      (record) => onRecord(record as BusRecord & { readonly key: Buffer }, partition),
    );
  }
}
