import type { Bus, BusBatch, GroupMember, PartitionOffsets } from '@kcm-bus/runtime/bus/bus.ts';
import { MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { AbandonedError, Executor } from './executor.ts';
import { InflightScheduler } from './inflight.ts';
import { Outbox } from './outbox.ts';
import { processRecord, type ConsumedMutation } from './process-record.ts';
import { GROUP_ID, recordGuard, recordPorts, type RecordPortsOptions } from './record-ports.ts';

/** WriterLoopOptions wire the consumer group to the apply function. */
export type WriterLoopOptions = RecordPortsOptions & {
  readonly bus: Bus;
  readonly concurrency: number;
  readonly partitions: number;
  readonly retentionMs: number;
  /** fatal stops the writer (exit status 1) on what it cannot go on after. */
  readonly fatal: (what: string, err: unknown) => void;
};

/** WriterLoop is the running loop: its probes and its stop. */
export type WriterLoop = {
  /** healthy is false once the consumer is dead for good (/healthz). */
  readonly healthy: () => boolean;
  /** notReady says why the writer is not ready, undefined when it is (/readyz). */
  readonly notReady: () => string | undefined;
  /** stop applies nothing more, lets requests in flight finish, leaves the group and closes the producer. */
  readonly stop: () => Promise<void>;
};

/** Membership is what the loop knows of its place in the group. */
type Membership = { assigned: boolean; dead: boolean; stopping: boolean; owned: ReadonlySet<number> };

/**
 * startWriterLoop consumes kcm.mutations as the `kcm-bus-writer` group, applies each batch with per-target
 * ordering, publishes a result (or a dead letter) per record, and commits a partition's offset only after
 * every record before it has its result published: at-least-once, made harmless by idempotent requests.
 */
export async function startWriterLoop(o: WriterLoopOptions): Promise<WriterLoop> {
  const configs = { 'cleanup.policy': 'delete', 'retention.ms': String(o.retentionMs) };
  await o.bus.ensureTopics(
    Object.values(MUTATION_TOPICS).map((topic) => ({ topic, partitions: o.partitions, configs })),
  );
  const publisher = await o.bus.publisher();
  const outbox = new Outbox(publisher);
  const guard = recordGuard(o, outbox);
  const ports = recordPorts(o, outbox, guard);
  const executor = new Executor(new InflightScheduler<ConsumedMutation>(o.concurrency), (r) => processRecord(r, ports));
  const m: Membership = { assigned: false, dead: false, stopping: false, owned: new Set() };
  const member = await consume(o, executor, m);
  return {
    healthy: () => !m.dead,
    notReady: () => {
      if (m.dead) return 'the kcm.mutations consumer crashed and will not restart';
      if (m.stopping) return 'stopping';
      if (!m.assigned) return `joining the ${GROUP_ID} group`;
      const fault = guard.fault();
      return fault === undefined ? undefined : `retrying a record after a transient fault: ${fault}`;
    },
    stop: async () => {
      m.stopping = true;
      await executor.close();
      await member.stop();
      await publisher.close();
    },
  };
}

async function consume(
  o: WriterLoopOptions,
  executor: Executor<ConsumedMutation>,
  m: Membership,
): Promise<GroupMember> {
  const member: GroupMember = await o.bus.joinGroup({
    groupId: GROUP_ID,
    topics: [MUTATION_TOPICS.mutations],
    fromBeginning: true,
    concurrency: o.partitions,
    onAssigned: (assignment) => reassigned(executor, m, assignment),
    onBatch: async (batch, heartbeat) => {
      const last = batch.records.at(-1);
      const commit = (offset: number): Promise<void> =>
        member.commit([{ topic: batch.topic, partition: batch.partition, offset: String(offset) }]);
      if (last && (await applied(o, executor, m, batch, { heartbeat, commit }))) await commit(Number(last.offset) + 1);
    },
    onCrash: (err, restart) => {
      m.assigned = false;
      if (restart) return;
      m.dead = true;
      o.fatal('the consumer crashed and will not restart', err);
    },
  });
  return member;
}

/**
 * reassigned drops the queued records of every partition the new assignment no longer holds (they are the new
 * owner's), so a member that lost a partition in a rebalance does not apply them. Mirrors a ConsumerRebalanceListener's
 * onPartitionsRevoked.
 */
function reassigned(
  executor: Executor<ConsumedMutation>,
  m: Membership,
  assignment: readonly PartitionOffsets[],
): void {
  const owned = new Set(assignment.filter((p) => p.topic === MUTATION_TOPICS.mutations).map((p) => p.partition));
  for (const partition of m.owned) if (!owned.has(partition)) executor.revoke(partition);
  m.owned = owned;
  m.assigned = true;
}

/** PROGRESS_MS: how often a batch being applied heartbeats and commits what is done of it so far. */
const PROGRESS_MS = 1000;

/** BatchProgress is how a batch being applied keeps its place: heartbeats, and commits of the offset done so far. */
type BatchProgress = { readonly heartbeat: () => Promise<void>; readonly commit: (offset: number) => Promise<void> };

/**
 * applied runs a batch; false when its records were abandoned (stopping, revoked): the batch is then not committed.
 * Meanwhile it commits, every PROGRESS_MS, the offset before which every result is published: a batch takes as long
 * as its creates' QPS budget (hundreds of records at 20/s), and a writer killed in it would otherwise leave the whole
 * batch to be applied again, each record spending a token for an AlreadyExists, before any new pod.
 */
async function applied(
  o: WriterLoopOptions,
  executor: Executor<ConsumedMutation>,
  m: Membership,
  batch: BusBatch,
  progress: BatchProgress,
): Promise<boolean> {
  const records = batch.records.map((r): ConsumedMutation => ({
    partition: batch.partition,
    offset: Number(r.offset),
    key: r.key?.toString() || `offset:${r.offset}`,
    record: r,
  }));
  let committed = Number(batch.records[0]?.offset ?? 0);
  const beat = setInterval(() => {
    void progress.heartbeat().catch(() => undefined);
    const done = executor.committable(batch.partition);
    if (done !== undefined && done > committed) void progress.commit((committed = done)).catch(() => undefined);
  }, PROGRESS_MS);
  try {
    await executor.run(records);
    return true;
  } catch (err) {
    if (err instanceof AbandonedError || m.stopping) return false;
    o.fatal('a result could not be published: exiting, to resume from the last commit', err);
    throw err;
  } finally {
    clearInterval(beat);
  }
}
