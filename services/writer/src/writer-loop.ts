import { Batcher } from '@kcm-bus/runtime/bus/batcher.ts';
import type { Bus, GroupMember, OutgoingRecord } from '@kcm-bus/runtime/bus/bus.ts';
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
  readonly bus: Bus;
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

type Outgoing = { readonly topic: string; readonly record: OutgoingRecord };

/**
 * startWriterLoop consumes kcm.mutations as the `kcm-bus-writer` group, applies each batch with per-target
 * ordering, publishes a result (or a dead letter) per record, and commits a partition's offset only after
 * every record before it has its result published: at-least-once, made harmless by idempotent requests.
 */
export async function startWriterLoop(o: WriterLoopOptions): Promise<{ readonly ready: () => boolean; readonly stop: () => Promise<void> }> {
  const configs = { 'cleanup.policy': 'delete', 'retention.ms': String(o.retentionMs) };
  await o.bus.ensureTopics(Object.values(MUTATION_TOPICS).map((topic) => ({ topic, partitions: o.partitions, configs })));
  const publisher = await o.bus.publisher();
  const outbox = new Batcher<Outgoing>(async (items) => {
    await publisher.sendTopics(Object.values(MUTATION_TOPICS).map((topic) => ({ topic, records: items.filter((i) => i.topic === topic).map((i) => i.record) })).filter((t) => t.records.length > 0));
  });
  const executor = new Executor(new InflightScheduler<ConsumedMutation>(o.concurrency), (r) => processRecord(r, ports(o, outbox)));
  const member = await consume(o, executor);
  return {
    ready: () => member.joined(),
    stop: async () => {
      await executor.close();
      await member.stop();
      await publisher.close();
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
      await outbox.push({ topic: MUTATION_TOPICS.results, record: { key: record.key, value: (await results.encode(result)).bytes } });
    },
    deadLetter: async (record, reason) => {
      o.metrics.deadLetter();
      o.log.warn('record sent to the dead-letter topic', { partition: record.partition, offset: record.offset, reason });
      await outbox.push({ topic: MUTATION_TOPICS.deadLetters, record: { key: record.key, value: record.value, headers: { 'kcm-bus.reason': reason, 'kcm-bus.source': `${MUTATION_TOPICS.mutations}/${record.partition}/${record.offset}` } } });
    },
  };
}

async function consume(o: WriterLoopOptions, executor: Executor<ConsumedMutation>): Promise<GroupMember> {
  const member: GroupMember = await o.bus.joinGroup({
    groupId: 'kcm-bus-writer', topics: [MUTATION_TOPICS.mutations], fromBeginning: true, concurrency: o.partitions,
    onBatch: async (batch, heartbeat) => {
      const records = batch.records.map((m): ConsumedMutation => ({ partition: batch.partition, offset: Number(m.offset), key: m.key?.toString() || `offset:${m.offset}`, value: m.value }));
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
      if (last) await member.commit([{ topic: batch.topic, partition: batch.partition, offset: String(last.offset + 1) }]);
    },
    onCrash: (err, restart) => {
      if (!restart) o.fatal('the consumer crashed and will not restart', err);
    },
  });
  return member;
}
