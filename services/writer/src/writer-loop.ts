import {
  keptFor,
  type Bus,
  type BusBatch,
  type GroupMember,
  type PartitionOffsets,
} from '@kcm-bus/runtime/bus/index.ts';
import { SIGNER_HEADER } from '@kcm-bus/runtime/signing/index.ts';
import { MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { AbandonedError, Executor } from './executor.ts';
import { InflightScheduler } from './inflight.ts';
import { Outbox } from './outbox.ts';
import { processRecord, type ConsumedMutation } from './process-record.ts';
import { GROUP_ID, recordGuard, recordPorts, type RecordPortsOptions } from './record-ports.ts';
import { PartitionCommits } from './partition-commits.ts';

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

/** PROGRESS_MS: how often a busy partition commits what is done of it (an idle one commits when its last record is). */
const PROGRESS_MS = 1000;

/**
 * MAX_PENDING bounds the records consumed ahead of their results: past it, the next batch waits for room (the
 * consumer then stops fetching), so a stalled API holds memory to that much. At --concurrency 32 it is 128 batches'
 * worth of work in flight per slot.
 */
const MAX_PENDING = 4096;

/**
 * startWriterLoop consumes kcm.mutations as the `kcm-bus-writer` group, hands each batch's records to the executor
 * (per-target order, up to --concurrency targets at once per controller) and goes on reading without waiting for them: a record
 * retried for a minute (a 5xx, a webhook down) holds only its own target, never the other partitions, which kafkajs
 * would otherwise not fetch again until every batch of its last fetch returned. Each record gets a result (or a dead
 * letter); a partition's offset is committed only past records whose results are published (PartitionCommits):
 * at-least-once, made harmless by idempotent requests.
 */
export async function startWriterLoop(o: WriterLoopOptions): Promise<WriterLoop> {
  const configs = keptFor(o.retentionMs);
  await o.bus.ensureTopics(
    Object.values(MUTATION_TOPICS).map((topic) => ({ topic, partitions: o.partitions, configs })),
  );
  const publisher = await o.bus.publisher();
  const outbox = new Outbox(publisher);
  const guard = recordGuard(o, outbox);
  const ports = recordPorts(o, outbox, guard);
  let member: GroupMember | undefined;
  const executor: Executor<ConsumedMutation> = new Executor(
    new InflightScheduler<ConsumedMutation>(o.concurrency),
    (r) => processRecord(r, ports),
    (r) => commits.done(r.partition),
  );
  const commits = new PartitionCommits(
    {
      committable: (partition) => executor.committable(partition),
      pending: (partition) => executor.pendingIn(partition),
      commit: async (partition, offset) =>
        member?.commit([{ topic: MUTATION_TOPICS.mutations, partition, offset: String(offset) }]),
    },
    PROGRESS_MS,
  );
  const m: Membership = { assigned: false, dead: false, stopping: false, owned: new Set() };
  member = await consume(o, { executor, commits }, m);
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
      await commits.stop();
      await member?.stop();
      await publisher.close();
    },
  };
}

/** Work is what the consumer hands its records to: the executor, and the commits of what it finished. */
type Work = { readonly executor: Executor<ConsumedMutation>; readonly commits: PartitionCommits };

async function consume(o: WriterLoopOptions, work: Work, m: Membership): Promise<GroupMember> {
  return o.bus.joinGroup({
    groupId: GROUP_ID,
    topics: [MUTATION_TOPICS.mutations],
    fromBeginning: true,
    concurrency: o.partitions,
    onAssigned: (assignment) => reassigned(work, m, assignment),
    onBatch: async (batch) => {
      run(o, work.executor, m, batch);
      await work.executor.room(MAX_PENDING);
    },
    onCrash: (err, restart) => {
      m.assigned = false;
      if (restart) return;
      m.dead = true;
      o.fatal('the consumer crashed and will not restart', err);
    },
  });
}

/**
 * reassigned drops the queued records of every partition the new assignment no longer holds (they are the new
 * owner's), so a member that lost a partition in a rebalance does not apply them; a kept partition is fetched again
 * from its last commit, and what of it is still outstanding here is not run twice (InflightScheduler.add). Mirrors a
 * ConsumerRebalanceListener's onPartitionsRevoked.
 */
function reassigned(work: Work, m: Membership, assignment: readonly PartitionOffsets[]): void {
  const owned = new Set(assignment.filter((p) => p.topic === MUTATION_TOPICS.mutations).map((p) => p.partition));
  for (const partition of m.owned) {
    if (owned.has(partition)) continue;
    work.executor.revoke(partition);
    work.commits.forget(partition);
  }
  m.owned = owned;
  m.assigned = true;
}

/**
 * run hands a batch's records to the executor without waiting for them; a run that fails other than by being
 * abandoned (stopping, revoked) means a result could not be published, and the writer exits, to resume from the
 * last commit.
 */
function run(o: WriterLoopOptions, executor: Executor<ConsumedMutation>, m: Membership, batch: BusBatch): void {
  const records = batch.records.map((r): ConsumedMutation => ({
    partition: batch.partition,
    offset: Number(r.offset),
    key: r.key?.toString() || `offset:${r.offset}`,
    lane: r.headers[SIGNER_HEADER] ?? '',
    record: r,
  }));
  executor.run(records).catch((err: unknown) => {
    if (err instanceof AbandonedError || m.stopping) return;
    o.fatal('a result could not be published: exiting, to resume from the last commit', err);
  });
}
