import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/index.ts';
import { httpSchemaRegistry } from '@kcm-bus/runtime/registry/registry.http.ts';
import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';

/** Timed is a decoded record of a kcm-bus topic with its place and Kafka timestamp (the producer's clock at send, ms). */
export type Timed<T> = {
  readonly partition: number;
  readonly offset: number;
  readonly timestamp: number;
  readonly value: T;
};

/** MutationValue is what the bench reads of a Mutation (S4, S8). */
export type MutationValue = {
  readonly id: string;
  readonly createdAt: string;
  readonly cause: readonly { readonly topic: string; readonly partition: number; readonly offset: number }[];
};

/** ResultValue is what the bench reads of a MutationResult (S4, S8). */
export type ResultValue = {
  readonly mutationId: string;
  readonly verb: string;
  readonly outcome: string;
  readonly name?: string | null;
  readonly appliedAt: string;
};

/** readTimed reads a topic's committed records whose key passes `keep`, decoded as written, with their timestamps. */
export async function readTimed<T>(
  e: StackEndpoints,
  topic: string,
  keep: (key: string) => boolean,
): Promise<Timed<T>[]> {
  const bus = kafkaBus({ brokers: e.kafkaBrokers, clientId: 'kcm-bus-bench-records' });
  const serde = new Serde(httpSchemaRegistry(e.registry), topic, undefined, (s) => new AvroCodec(s));
  const out: Timed<T>[] = [];
  await bus.readToEnd(topic, async (r, partition) => {
    if (r.value === null || !keep(r.key?.toString() ?? '')) return;
    out.push({
      partition,
      offset: Number(r.offset),
      timestamp: Number(r.timestamp),
      value: (await serde.decode(r.value)).value as T,
    });
  });
  return out;
}
