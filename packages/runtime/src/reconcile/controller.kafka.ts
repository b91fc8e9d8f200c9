import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import { type Consumer, GROUP_TIMEOUTS, type Kafka } from '../bus/bus.kafka.ts';
import { namespacePartitioner } from '../bus/partitioner.kafka.ts';
import type { Serde } from '../codec/serde.ts';
import type { CacheSync } from '../consumer/cache-sync.ts';
import { coPartitionAssigner } from '../consumer/co-partition.kafka.ts';
import { objectNameOf } from '../mutation/mutation-id.ts';
import type { MutationResult } from '../mutation/mutation-result.ts';
import type { Mutation } from '../mutation/mutation.ts';
import type { Logger } from '../service/log.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import type { Controller } from './controller.ts';

const PARTITIONS_AT_ONCE = 16;

/** ControllerGroupOptions wire a Controller to its input topics, the results topic and kcm.mutations. */
export type ControllerGroupOptions = {
  readonly kafka: Kafka;
  readonly groupId: string;
  /** The co-partitioned watch topics and the reader serde of each. */
  readonly inputs: ReadonlyMap<string, Serde>;
  readonly results: { readonly topic: string; readonly serde: Serde };
  readonly mutationsTopic: string;
  readonly mutationSerde: Serde;
  readonly controller: Controller;
  readonly cacheSync: CacheSync;
  /** onAssigned is told the partition numbers this member now owns (it drops the state of the others). */
  readonly onAssigned: (partitions: ReadonlySet<number>) => void;
  readonly log: Logger;
  /** fatal stops the service (exit 1) when the consumer crashed for good: a restart replays and resumes. */
  readonly fatal: (what: string, err: unknown) => void;
};

/** ControllerGroup is a running consumer-group member of a controller. */
export type ControllerGroup = { readonly publish: (mutations: readonly Mutation[]) => Promise<void>; readonly joined: () => boolean; readonly stop: () => Promise<void> };

/**
 * startControllerGroup joins the controller's consumer group with the co-partitioning assigner, replays every
 * assigned partition from the beginning into the stores (no offsets are committed: state is rebuilt from the
 * compacted topics), marks records live once their partition caught up with the high-water mark seen on
 * assignment, and publishes mutations keyed by their target object.
 */
export async function startControllerGroup(o: ControllerGroupOptions): Promise<ControllerGroup> {
  const producer = o.kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: namespacePartitioner, retry: { retries: Number.MAX_SAFE_INTEGER, maxRetryTime: 10_000 } });
  await producer.connect();
  const consumer = o.kafka.consumer({ groupId: o.groupId, readUncommitted: false, ...GROUP_TIMEOUTS, partitionAssigners: [coPartitionAssigner({ globalTopics: [] })] });
  const state = followGroup(o, consumer);
  await consumer.connect();
  await consumer.subscribe({ topics: [...o.inputs.keys(), o.results.topic], fromBeginning: true });
  await consumer.run({
    // Partitions are independent (each holds whole namespaces), and an RC's partition must not wait behind a
    // busy pods partition: consume them side by side, each in order.
    autoCommit: false, partitionsConsumedConcurrently: PARTITIONS_AT_ONCE,
    eachBatch: async (payload) => {
      await state.assignment;
      await consumeBatch(o, payload, state.consumed);
    },
  });
  return {
    joined: () => state.joined,
    publish: (mutations) => publish(o, producer, mutations),
    stop: async () => {
      await consumer.disconnect();
      await producer.disconnect();
    },
  };
}

type TP = { readonly topic: string; readonly partition: number };

/** GroupState follows a member's joins: whether it joined, the setup of its current assignment, replay progress. */
type GroupState = { joined: boolean; assignment: Promise<void>; readonly consumed: (tp: TP, offset: string) => void };

/**
 * followGroup watches the consumer's events: a join sets up the new assignment (cache-sync targets), a crash for
 * good stops the service, and consumed offsets (records and batches of markers) move the cache sync on, with a
 * log line when a partition caught up with its history (how long the replay took).
 */
function followGroup(o: ControllerGroupOptions, consumer: Consumer): GroupState {
  let assignedAt = performance.now();
  const state: GroupState = {
    joined: false, assignment: new Promise(() => undefined),
    consumed: (tp, offset) => {
      if (o.cacheSync.consumed(tp, offset)) o.log.info('partition caught up with its history', { ...tp, offset, seconds: Math.round(performance.now() - assignedAt) / 1000 });
    },
  };
  consumer.on(consumer.events.GROUP_JOIN, (e) => {
    state.joined = true;
    assignedAt = performance.now();
    state.assignment = assign(o, e.payload.memberAssignment);
  });
  consumer.on(consumer.events.CRASH, (e) => {
    if (!e.payload.restart) o.fatal('the consumer crashed and will not restart', e.payload.error);
  });
  consumer.on(consumer.events.END_BATCH_PROCESS, (e) => state.consumed({ topic: e.payload.topic, partition: e.payload.partition }, e.payload.lastOffset));
  return state;
}

async function assign(o: ControllerGroupOptions, memberAssignment: Readonly<Record<string, readonly number[]>>): Promise<void> {
  const admin = o.kafka.admin();
  await admin.connect();
  try {
    const numbers = new Set(Object.values(memberAssignment).flat());
    for (const [topic, partitions] of Object.entries(memberAssignment)) {
      const offsets = await admin.fetchTopicOffsets(topic);
      for (const p of partitions) {
        const at = offsets.find((x) => x.partition === p);
        o.cacheSync.assigned({ topic, partition: p }, at?.high ?? '0', at?.low ?? '0');
      }
    }
    o.onAssigned(numbers);
    o.log.info('partitions assigned', { partitions: [...numbers].sort((a, b) => a - b) });
  } finally {
    await admin.disconnect();
  }
}

async function consumeBatch(o: ControllerGroupOptions, { batch, heartbeat }: EachBatchPayload, consumed: GroupState['consumed']): Promise<void> {
  const tp = { topic: batch.topic, partition: batch.partition };
  for (const message of batch.messages) {
    const live = o.cacheSync.synced(tp);
    await consumeOne(o, batch.topic, batch.partition, message, live);
    consumed(tp, message.offset);
    await heartbeat();
  }
}

async function consumeOne(o: ControllerGroupOptions, topic: string, partition: number, message: KafkaMessage, live: boolean): Promise<void> {
  const key = message.key?.toString() ?? '';
  const cause = { topic, partition, offset: Number(message.offset) };
  if (message.value === null || key.startsWith('~')) return;
  if (topic === o.results.topic) {
    const result = (await o.results.serde.decode(message.value)).value as MutationResult;
    return o.controller.onResult(result, cause, live);
  }
  const serde = o.inputs.get(topic);
  if (!serde) return;
  const event = (await serde.decode(message.value)).value as { type: 'Applied' | 'Deleted' | 'Watermark'; object: unknown; resourceVersion: string };
  if (event.type === 'Watermark') return;
  await o.controller.onEvent(topic, { cause, type: event.type, key, object: event.object, resourceVersion: event.resourceVersion, live });
}

async function publish(o: ControllerGroupOptions, producer: ReturnType<Kafka['producer']>, mutations: readonly Mutation[]): Promise<void> {
  if (mutations.length === 0) return;
  const messages = await Promise.all(mutations.map(async (m) => ({ key: recordKey(m), value: (await o.mutationSerde.encode(m)).bytes })));
  await producer.send({ topic: o.mutationsTopic, acks: -1, messages });
}

/** recordKey is a mutation's record key: its target `namespace/name`, with a generated name derived as the writer will. */
export function recordKey(m: Mutation): string {
  return objectKey({ namespace: m.target.namespace, name: objectNameOf(m) });
}
