import type { Batch, Consumer, ConsumerConfig, IHeaders, Kafka, KafkaMessage, PartitionAssigner } from 'kafkajs';
import { deleteGroup, partitionOffsets } from './admin.kafka.ts';
import type { BusBatch, BusRecord, GroupMember, GroupOptions } from './bus.ts';
import { coPartitionAssigner } from './co-partition.kafka.ts';
import { FetchLinger } from './fetch-linger.ts';
import { onlyPartitionsAssigner } from './only-partitions.kafka.ts';
import { commitProgress } from './progress-commits.kafka.ts';
import { TOPIC_MAX_MESSAGE_BYTES } from './record-limit.ts';
import { causeChain } from '../faults/record-fault.ts';

/**
 * GROUP_TIMEOUTS are a shared consumer group's session.timeout.ms and heartbeat.interval.ms. A member killed with -9
 * holds its partitions for a whole session before the group rebalances to its replacement: kafkajs's 30 s session
 * made S7 pause 24-30 s, 10 s made it 14.7 s against upstream's 16.3 s (kube-controller-manager's 15 s lease).
 * 6 s is the broker's default group.min.session.timeout.ms, the shortest a broker accepts, with three heartbeats per
 * session as Kafka advises; every member heartbeats each interval from its heartbeat thread, answered or not
 * (heartbeat-thread.kafka.ts), so only a 6 s stall of the event loop could cost a live member its partitions.
 */
const GROUP_TIMEOUTS = { sessionTimeout: 6000, heartbeatInterval: 2000 } as const;

/**
 * EPHEMERAL_TIMEOUTS are the session and heartbeat of a group of one member (a member's reader of global inputs, a
 * tail, a read to the end): no other member takes its partitions over, so a short session buys nothing. Before the
 * heartbeat thread, kafkajs heartbeat only between fetches, and a fetch of quiet topics waits its whole
 * maxWaitTimeInMs (5 s): a 6 s session was lost whenever the event loop came a second late, and each loss was a
 * rejoin that read the global inputs again from offset 0 (the soak: 44 in 30 minutes in reconciler-node, each a step
 * of its memory). 30 s is kafkajs's own default session, ten heartbeats of its default 3 s.
 */
const EPHEMERAL_TIMEOUTS = { sessionTimeout: 30_000, heartbeatInterval: 3000 } as const;

/** groupTimeouts are a group's session.timeout.ms and heartbeat.interval.ms: ephemeral groups' long, others' short. */
export function groupTimeouts(o: Pick<GroupOptions, 'ephemeral'>): {
  sessionTimeout: number;
  heartbeatInterval: number;
} {
  return o.ephemeral ? EPHEMERAL_TIMEOUTS : GROUP_TIMEOUTS;
}

/**
 * FETCH_LIMITS fetch up to the topics' record limit (TOPIC_MAX_MESSAGE_BYTES) per partition, not kafkajs's 1 MiB: a
 * broker returns a batch over the fetch's per-partition limit only in the first partition of a fetch that has data
 * (KIP-74), so a large record behind partitions that always have some (watermarks every second) would never come.
 */
const FETCH_LIMITS = { maxBytesPerPartition: TOPIC_MAX_MESSAGE_BYTES } as const;

/**
 * consumerConfig is the kafkajs consumer of a member: read_committed, its group's timeouts, the topics' fetch limits,
 * its assigner, and its fetch wait when it names one.
 */
export function consumerConfig(o: GroupOptions): ConsumerConfig {
  return {
    groupId: o.groupId,
    readUncommitted: false,
    ...groupTimeouts(o),
    ...FETCH_LIMITS,
    ...(o.maxWaitMs === undefined ? {} : { maxWaitTimeInMs: o.maxWaitMs }),
    ...assignersOf(o),
  };
}

/**
 * joinKafkaGroup runs a kafkajs consumer (read_committed, no auto-commit) as a member of o.groupId: every batch
 * waits until joinKafkaGroup returned and until o.onAssigned finished with the assignment the batch belongs to, and
 * reads each newly assigned partition from o.startAt when it names an offset; o.commitProgress commits its progress.
 * An ephemeral group is deleted when its member stops (or fails to start).
 */
export async function joinKafkaGroup(kafka: Kafka, o: GroupOptions): Promise<GroupMember> {
  const consumer = kafka.consumer(consumerConfig(o));
  const stopCommits = o.commitProgress
    ? commitProgress(consumer, o.commitProgress === true ? () => true : o.commitProgress)
    : async () => undefined;
  let stopping = false;
  const leave = async (): Promise<void> => {
    stopping = true;
    try {
      await stopCommits();
      await consumer.disconnect();
    } finally {
      if (o.ephemeral) await deleteGroup(kafka, o.groupId);
    }
  };
  const { promise: started, resolve: start } = Promise.withResolvers<void>();
  const membership = followGroup(kafka, o, consumer);
  const linger = new FetchLinger(o.fetchLingerMs ?? 0);
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [...o.topics], fromBeginning: o.fromBeginning });
    await consumer.run({
      autoCommit: false,
      partitionsConsumedConcurrently: o.concurrency ?? 1,
      eachBatch: async ({ batch, heartbeat }) => {
        await started;
        await latestAssignment(membership);
        await o.onBatch(busBatch(batch), heartbeat);
        await linger.afterBatch();
      },
    });
  } catch (err) {
    await leave().catch(() => undefined);
    throw err;
  }
  start();
  return {
    joined: () => membership.joined,
    commit: (offsets) => commitUnlessGone(consumer, offsets),
    stop: leave,
    ...pausable(consumer, () => stopping),
  };
}

/**
 * pausable is a member's pause and resume of its consumer, which do nothing once the member began to stop: a
 * restored partition's hand-off to its history can come during the stop (from a batch the stop waits for), when
 * kafkajs has torn its group down and throws ("Consumer group was not initialized").
 */
export function pausable(
  consumer: Pick<Consumer, 'pause' | 'resume' | 'seek'>,
  stopping: () => boolean,
): Pick<GroupMember, 'pause' | 'resume'> {
  return {
    pause: (tps) => {
      if (!stopping()) consumer.pause(tps.map(({ topic, partition }) => ({ topic, partitions: [partition] })));
    },
    resume: (tps) => {
      if (stopping()) return;
      for (const tp of tps)
        if (tp.offset !== undefined) consumer.seek({ topic: tp.topic, partition: tp.partition, offset: tp.offset });
      consumer.resume(tps.map(({ topic, partition }) => ({ topic, partitions: [partition] })));
    },
  };
}

/** GONE are the answers to a commit from a member the group no longer counts (kafkajs rejoins on its next heartbeat). */
const GONE = new Set(['UNKNOWN_MEMBER_ID', 'ILLEGAL_GENERATION', 'REBALANCE_IN_PROGRESS', 'FENCED_INSTANCE_ID']);

/** lostGeneration tells whether an error (kafkajs wraps the broker's answer in `cause`) says the member's generation is gone. */
export function lostGeneration(err: unknown): boolean {
  return causeChain(err).some((e) => GONE.has(String((e as { type?: unknown }).type)));
}

/**
 * commitUnlessGone commits offsets; refused because the member's generation is gone (it stalled past its session:
 * SIGSTOP, a long GC), the commit is dropped: its records stay uncommitted and are read again by the partition's
 * owner, while kafkajs rejoins on its next heartbeat. Thrown from a batch handler, kafkajs would take the wrapped
 * refusal for a crash it does not restart from.
 */
async function commitUnlessGone(consumer: Consumer, offsets: Parameters<GroupMember['commit']>[0]): Promise<void> {
  try {
    await consumer.commitOffsets([...offsets]);
  } catch (err) {
    if (!lostGeneration(err)) throw err;
  }
}

/** assignersOf picks the group's partition assigner: co-partitioning, some partitions only, or kafkajs's default. */
function assignersOf(o: GroupOptions): { partitionAssigners?: PartitionAssigner[] } {
  if (o.coPartitioned) return { partitionAssigners: [coPartitionAssigner] };
  return o.partitions ? { partitionAssigners: [onlyPartitionsAssigner(o.partitions)] } : {};
}

/**
 * Membership is what a member's events said: whether it joined, how many times (the generation of its latest join),
 * the work of its latest join, and the onAssigned work running now, if any.
 */
export type Membership = { joined: boolean; generation: number; assignment: Promise<void>; applying: Promise<void> };

/**
 * nextAssignment runs a join's work: `fetch` at once (the assignment's offsets), then `apply` (onAssigned) once no
 * earlier join's apply is running, and only if no later join came meanwhile. Two joins a moment apart (coordinators
 * moving with brokers) each fetch their offsets; an earlier join's answer that came last would otherwise reset what
 * the later one had restored, leaving a partition marked restored with a store that lacks its objects.
 */
export function nextAssignment<T>(
  membership: Membership,
  fetch: () => Promise<T>,
  apply: (fetched: T) => Promise<void>,
): void {
  const generation = ++membership.generation;
  const fetched = fetch();
  membership.assignment = (async () => {
    const got = await fetched;
    await membership.applying.catch(() => undefined);
    if (membership.generation !== generation) return;
    membership.applying = apply(got);
    await membership.applying;
  })();
  // Awaited by the assignment's first batch, whose failure restarts the consumer; not an unhandled rejection before.
  membership.assignment.catch(() => undefined);
}

/** latestAssignment waits until the onAssigned work of the latest join is done, however many joins come meanwhile. */
export async function latestAssignment(membership: Membership): Promise<void> {
  for (;;) {
    const awaited = membership.assignment;
    await awaited;
    if (awaited === membership.assignment) return;
  }
}

/**
 * followGroup turns the consumer's events into the options' callbacks: a join fetches the assignment's offsets for
 * onAssigned, END_BATCH_PROCESS (also emitted for batches of transaction markers only, which never reach eachBatch)
 * is onProgress, and CRASH is onCrash.
 */
function followGroup(kafka: Kafka, o: GroupOptions, consumer: Consumer): Membership {
  const membership: Membership = {
    joined: false,
    generation: 0,
    assignment: Promise.resolve(),
    applying: Promise.resolve(),
  };
  consumer.on(consumer.events.GROUP_JOIN, (e) => {
    membership.joined = true;
    pauseAtJoin(o, consumer, e.payload.memberAssignment);
    seekStarts(o, consumer, e.payload.memberAssignment);
    const assignment = e.payload.memberAssignment;
    nextAssignment(
      membership,
      () => (o.onAssigned ? partitionOffsets(kafka, Object.keys(assignment)) : Promise.resolve([])),
      async (offsets) => o.onAssigned?.(offsets.filter((p) => assignment[p.topic]?.includes(p.partition))),
    );
  });
  consumer.on(consumer.events.END_BATCH_PROCESS, (e) =>
    o.onProgress?.({ topic: e.payload.topic, partition: e.payload.partition }, e.payload.lastOffset),
  );
  consumer.on(consumer.events.CRASH, (e) => o.onCrash(e.payload.error, e.payload.restart));
  return membership;
}

/**
 * seekStarts moves each assigned partition to o.startAt's offset. Called from GROUP_JOIN, which kafkajs emits after
 * the sync and before the assignment's first fetch, where pending seeks are applied: no record of the committed
 * position is read first. An offset before the log's start is out of range, which kafkajs answers by reading from
 * the start (fromBeginning).
 */
function seekStarts(
  o: GroupOptions,
  consumer: Consumer,
  assignment: Readonly<Record<string, readonly number[]>>,
): void {
  for (const [topic, partitions] of Object.entries(assignment)) {
    for (const partition of partitions) {
      const offset = o.startAt?.({ topic, partition });
      if (offset !== undefined) consumer.seek({ topic, partition, offset });
    }
  }
}

/**
 * pauseAtJoin pauses the assigned partitions o.pausedAtJoin says true of and resumes the others, from GROUP_JOIN (before
 * the assignment's first fetch): kafkajs keeps a partition paused across rebalances, so a partition a member paused
 * or resumed under an earlier assignment must be set again.
 */
function pauseAtJoin(
  o: GroupOptions,
  consumer: Consumer,
  assignment: Readonly<Record<string, readonly number[]>>,
): void {
  if (!o.pausedAtJoin) return;
  for (const [topic, partitions] of Object.entries(assignment)) {
    const held = partitions.filter((partition) => o.pausedAtJoin!({ topic, partition }));
    consumer.pause([{ topic, partitions: held }]);
    consumer.resume([{ topic, partitions: partitions.filter((p) => !held.includes(p)) }]);
  }
}

/** busBatch is a kafkajs batch in the port's terms (lastOffset also covers trailing transaction markers). */
export function busBatch(batch: Pick<Batch, 'topic' | 'partition' | 'messages' | 'lastOffset'>): BusBatch {
  return {
    topic: batch.topic,
    partition: batch.partition,
    records: batch.messages.map(busRecord),
    lastOffset: batch.lastOffset(),
  };
}

function busRecord(m: KafkaMessage): BusRecord {
  return {
    key: m.key ?? null,
    value: m.value,
    offset: m.offset,
    timestamp: m.timestamp,
    headers: headersOf(m.headers),
  };
}

/** headersOf reads header values as UTF-8 text (a repeated header's values joined by commas). */
function headersOf(headers: IHeaders | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers ?? {}).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
  );
}
