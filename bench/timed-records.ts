import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/serde.ts';
import { httpSchemaRegistry } from '@kcm-bus/runtime/registry/registry.http.ts';
import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';
import type { Timed } from './latency-hops.ts';

/** readTimed reads a topic's committed records whose key passes `keep`, decoded as written, with their timestamps. */
export async function readTimed<T>(e: StackEndpoints, topic: string, keep: (key: string) => boolean): Promise<Timed<T>[]> {
  const bus = kafkaBus({ brokers: [e.kafkaBootstrap], clientId: 'kcm-bus-bench-records' });
  const serde = new Serde(httpSchemaRegistry(e.registry), topic, undefined, (s) => new AvroCodec(s));
  const out: Timed<T>[] = [];
  await bus.readToEnd(topic, async (r, partition) => {
    if (r.value === null || !keep(r.key?.toString() ?? '')) return;
    out.push({ partition, offset: Number(r.offset), timestamp: Number(r.timestamp), value: (await serde.decode(r.value)).value as T });
  });
  return out;
}
