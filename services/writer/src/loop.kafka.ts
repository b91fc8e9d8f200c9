import type { Message } from 'kafkajs';
import { GROUP_TIMEOUTS, type Kafka } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { Batcher } from '@kcm-bus/runtime/bus/batcher.ts';
import { namespacePartitioner } from '@kcm-bus/runtime/bus/partitioner.kafka.ts';
import { ensureTopics } from '@kcm-bus/runtime/bus/topics.kafka.ts';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/serde.ts';
import type { MutationResult } from '@kcm-bus/runtime/mutation/mutation-result.ts';
import type { Mutation } from '@kcm-bus/runtime/mutation/mutation.ts';
import type { SchemaRegistry } from '@kcm-bus/runtime/registry/registry.ts';
import type { Logger } from '@kcm-bus/runtime/service/log.ts';
import { loadMutationSchemas, MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { Executor } from './executor.ts';
import { InflightScheduler } from './inflight.ts';
import { processRecord, type ConsumedMutation, type RecordPorts } from './process-record.ts';
import type { WriterMetrics } from './writer-metrics.prom.ts';

/** WriterLoopOptions wire the consumer group to the apply function. */
export type WriterLoopOptions = {
  readonly kafka: Kafka;
  readonly registry: SchemaRegistry;
  readonly apply: (m: Mutation) => Promise<MutationResult>;
  readonly concurrency: number;
  readonly partitions: number;
  readonly retentionMs: number;
  readonly log: Logger;
  readonly metrics: WriterMetrics;
  /** fatal stops the writer (exit status 1) on what it cannot go on after. */
  readonly fatal: (what: string, err: unknown) => void;
};

type Outgoing = { readonly topic: string; readonly message: Message };

/**
 * startWriterLoop consumes kcm.mutations as the `kcm-bus-writer` group, applies each batch with per-target
 * ordering, publishes a result (or a dead letter) per record, and commits a partition's offset only after
 * every record before it has its result published: at-least-once, made harmless by idempotent requests.
 */
export async function startWriterLoop(o: WriterLoopOptions): Promise<{ readonly ready: () => boolean; readonly stop: () => Promise<void> }> {
  const configs = { 'cleanup.policy': 'delete', 'retention.ms': String(o.retentionMs) };
  await ensureTopics(o.kafka, Object.values(MUTATION_TOPICS).map((topic) => ({ topic, partitions: o.partitions, configs })));
  const producer = o.kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: namespacePartitioner, retry: { retries: Number.MAX_SAFE_INTEGER, maxRetryTime: 10_000 } });
  await producer.connect();
  const outbox = new Batcher<Outgoing>(async (items) => {
    await producer.sendBatch({ acks: -1, topicMessages: Object.values(MUTATION_TOPICS).map((topic) => ({ topic, messages: items.filter((i) => i.topic === topic).map((i) => i.message) })).filter((t) => t.messages.length > 0) });
  });
  const executor = new Executor(new InflightScheduler<ConsumedMutation>(o.concurrency), (r) => processRecord(r, ports(o, outbox)));
  const consumer = await consume(o, executor);
  return {
    ready: consumer.ready,
    stop: async () => {
      await executor.close();
      await consumer.stop();
      await producer.disconnect();
    },
  };
}

function ports(o: WriterLoopOptions, outbox: Batcher<Outgoing>): RecordPorts {
  const schemas = loadMutationSchemas();
  const codec = (s: object): AvroCodec => new AvroCodec(s);
  const mutations = new Serde(o.registry, MUTATION_TOPICS.mutations, schemas.mutation, codec);
  const results = new Serde(o.registry, MUTATION_TOPICS.results, schemas.result, codec);
  return {
    decode: async (bytes) => (await mutations.decode(bytes)).value,
    apply: o.apply,
    publishResult: async (record, result) => {
      o.metrics.result(result);
      if (result.outcome === 'Refused') o.log.warn('mutation refused', { mutationId: result.mutationId, controller: result.controller, verb: result.verb, reason: result.reason, message: result.message });
      await outbox.push({ topic: MUTATION_TOPICS.results, message: { key: record.key, value: (await results.encode(result)).bytes } });
    },
    deadLetter: async (record, reason) => {
      o.metrics.deadLetter();
      o.log.warn('record sent to the dead-letter topic', { partition: record.partition, offset: record.offset, reason });
      await outbox.push({ topic: MUTATION_TOPICS.deadLetters, message: { key: record.key, value: record.value, headers: { 'kcm-bus.reason': reason, 'kcm-bus.source': `${MUTATION_TOPICS.mutations}/${record.partition}/${record.offset}` } } });
    },
  };
}

async function consume(o: WriterLoopOptions, executor: Executor<ConsumedMutation>): Promise<{ readonly ready: () => boolean; readonly stop: () => Promise<void> }> {
  const consumer = o.kafka.consumer({ groupId: 'kcm-bus-writer', readUncommitted: false, ...GROUP_TIMEOUTS });
  let joined = false;
  consumer.on(consumer.events.GROUP_JOIN, () => void (joined = true));
  await consumer.connect();
  await consumer.subscribe({ topic: MUTATION_TOPICS.mutations, fromBeginning: true });
  await consumer.run({
    autoCommit: false, partitionsConsumedConcurrently: o.partitions,
    eachBatch: async ({ batch, heartbeat }) => {
      const records = batch.messages.map((m): ConsumedMutation => ({ partition: batch.partition, offset: Number(m.offset), key: m.key?.toString() || `offset:${m.offset}`, value: m.value }));
      const beat = setInterval(() => void heartbeat().catch(() => undefined), 3000);
      try {
        await executor.run(records);
      } catch (err) {
        o.fatal('a result could not be published: exiting, to resume from the last commit', err);
        throw err;
      } finally {
        clearInterval(beat);
      }
      const last = records.at(-1);
      if (last) await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: String(last.offset + 1) }]);
    },
  });
  return { ready: () => joined, stop: () => consumer.disconnect() };
}
