import { createRequire } from 'node:module';
import { ConsumerGroup, coordinatorLost, lookUpCoordinator, type MemberState } from './leader-moves.kafka.ts';

/**
 * MAX_POLL_INTERVAL_MS is how long one batch may keep its member in the group by background heartbeats: the Java
 * consumer's max.poll.interval.ms default, after which a member whose handler is stuck leaves and its partitions go
 * to the others.
 */
export const MAX_POLL_INTERVAL_MS = 300_000;

/** Coordinator is the part of kafkajs's Broker a heartbeat uses (src/broker/index.js). */
type Coordinator = {
  heartbeat(args: { groupId: string; groupGenerationId: number; memberId: string }): Promise<unknown>;
};

/** REJOIN are the heartbeat answers kafkajs acts on by rejoining the group. */
const REJOIN = new Set(['REBALANCE_IN_PROGRESS', 'UNKNOWN_MEMBER_ID', 'ILLEGAL_GENERATION', 'FENCED_INSTANCE_ID']);

/** Refusal is a rejoin answer the thread got, for the member and generation its heartbeat was sent as. */
type Refusal = { readonly error: unknown; readonly memberId: string; readonly generationId: number };

/**
 * GroupState is what the thread reads and sets of kafkajs's ConsumerGroup: the member, its session's length, its
 * coordinator, when it last heartbeat, and what the thread keeps there for the runner.
 */
type GroupState = MemberState & {
  readonly memberId: string | null;
  readonly generationId: number;
  readonly sessionTimeout: number;
  [BEATING]?: true;
  [REFUSED]?: Refusal;
};

/** RunnerState is what the thread reads of kafkajs's Runner (src/consumer/runner.js), and what it keeps there. */
export type RunnerState = {
  readonly running: boolean;
  readonly heartbeatInterval: number;
  readonly consumerGroup: GroupState;
  [THREAD]?: ReturnType<typeof setInterval>;
  [BATCHES]?: Set<{ readonly since: number }>;
  [ANSWERED]?: number;
  [STOPPING]?: true;
};

type RunnerProto = {
  start(this: RunnerState): Promise<void>;
  stop(this: RunnerState): Promise<void>;
  handleBatch(this: RunnerState, batch: unknown): Promise<void>;
};
type Heartbeat = (this: GroupState, args: { interval: number }) => Promise<void>;
type GroupProto = { heartbeat: Heartbeat };

/** Runner is kafkajs 2.2.4's consumer runner, loaded from its source (the package has no `exports` map). */
export const Runner = createRequire(import.meta.url)('kafkajs/src/consumer/runner.js') as { prototype: RunnerProto };

/**
 * beat is one turn of a member's heartbeat thread (the Java consumer's AbstractCoordinator.HeartbeatThread): a
 * Heartbeat sent straight to the group's coordinator, whether or not an earlier one was answered. kafkajs 2.2.4
 * heartbeats only between fetches and between records, one at a time, and waits for each: an idle member's fetch
 * waits 5 s (maxWaitTimeInMs) for records, so it heartbeat every 5 s in a 6 s session, and Kafka 4's coordinator
 * answers a heartbeat as a write to its __consumer_offsets partition (GroupCoordinatorService.heartbeat), which waits
 * for a killed follower until the controller fences it (9 s): one late answer cost the member its session, a
 * rebalance and every member's restore. The coordinator counts a heartbeat when it arrives. No turn beats for a
 * member without an id (joining) or while a batch has run past maxMs (a stuck handler leaves, as past
 * max.poll.interval.ms). While the coordinator has answered nothing for a session (an error it sent counts as an
 * answer), it is looked up again at every turn, one lookup at a time, as the Java thread marks it unknown and looks
 * it up until its session is no longer expired: a broker stopped with its connections open (SIGSTOP) answers nothing
 * until the request timeout (30 s), and the lookups name it until the controller fences it (9 s); the group's new
 * coordinator then counts the member's session from its load (6 s), so the member must reach it within that.
 */
export function beat(runner: RunnerState, now: number, maxMs = MAX_POLL_INTERVAL_MS): void {
  const group = runner.consumerGroup;
  const { groupId, memberId, generationId } = group;
  const coordinator = group.coordinator as Coordinator | undefined;
  if (!memberId || !coordinator) return;
  for (const batch of runner[BATCHES] ?? []) if (now - batch.since > maxMs) return;
  if (now - (runner[ANSWERED] ??= now) > group.sessionTimeout) lookUpCoordinator(group, now);
  coordinator.heartbeat({ groupId, memberId, groupGenerationId: generationId }).then(
    () => void (runner[ANSWERED] = group.lastRequest = Date.now()),
    (error: unknown) => {
      if (group.coordinator === coordinator) refused(runner, { error, memberId, generationId });
    },
  );
}

/**
 * refused takes a failed heartbeat's answer from the member's coordinator: a rejoin answer for the runner, a moved
 * or unreachable coordinator to look up again. An answer from a coordinator the member has left since is dropped, as
 * the Java client fails the requests of the coordinator it disconnects from: a stopped broker, continued, answers the
 * heartbeats it held with UNKNOWN_MEMBER_ID (its sessions ran out while it was stopped) before it learns it was fenced.
 */
function refused(runner: RunnerState, refusal: Refusal): void {
  const { type } = (refusal.error ?? {}) as { type?: unknown };
  if (typeof type === 'string') runner[ANSWERED] = Date.now();
  if (REJOIN.has(String(type))) runner.consumerGroup[REFUSED] = refusal;
  else if (coordinatorLost(refusal.error)) lookUpCoordinator(runner.consumerGroup);
}

/**
 * heartbeatFromThread is a member's heartbeat, as its runner calls it between fetches and records, once its thread
 * beats: it sends nothing (the thread does) and throws the last rejoin answer the thread got, if it was for the
 * member and generation the group still has; so the runner's fetch loop never waits on a coordinator. Before the
 * thread starts and after it stops, kafkajs's own.
 */
function heartbeatFromThread(heartbeat: Heartbeat): Heartbeat {
  return async function (this: GroupState, args: { interval: number }) {
    if (!this[BEATING]) return heartbeat.call(this, args);
    const refusal = this[REFUSED];
    delete this[REFUSED];
    if (refusal && refusal.memberId === this.memberId && refusal.generationId === this.generationId)
      throw refusal.error;
  };
}

/**
 * heartbeatInBackground gives every consumer a heartbeat thread: from the moment its runner runs (joined and synced)
 * until its stop has left the group (a stop waits for the fetches in flight, up to 5 s, and a member whose session
 * ran out meanwhile rejoined on its way out) or it crashed, beat every heartbeat interval; each batch is counted from
 * its start to its end; the runner's own heartbeats are heartbeatFromThread's. Idempotent: each prototype is patched
 * once.
 */
export function heartbeatInBackground(
  runner: { prototype: RunnerProto } = Runner,
  group: { prototype: GroupProto } = ConsumerGroup as unknown as { prototype: GroupProto },
  maxMs = MAX_POLL_INTERVAL_MS,
): void {
  const proto = runner.prototype as RunnerProto & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  group.prototype.heartbeat = heartbeatFromThread(group.prototype.heartbeat);
  const { start, stop, handleBatch } = proto;
  proto.start = async function (this: RunnerState) {
    await start.call(this);
    if (this.running && !this[THREAD]) startThread(this, maxMs);
  };
  proto.stop = async function (this: RunnerState) {
    this[STOPPING] = true;
    try {
      await stop.call(this);
    } finally {
      delete this[STOPPING];
      stopThread(this);
    }
  };
  proto.handleBatch = async function (this: RunnerState, batch: unknown) {
    const running = { since: Date.now() };
    const batches = (this[BATCHES] ??= new Set());
    batches.add(running);
    try {
      await handleBatch.call(this, batch);
    } finally {
      batches.delete(running);
    }
  };
  proto[PATCHED] = true;
}

function startThread(runner: RunnerState, maxMs: number): void {
  runner.consumerGroup[BEATING] = true;
  runner[THREAD] = setInterval(() => {
    if (runner.running || runner[STOPPING]) beat(runner, Date.now(), maxMs);
    else stopThread(runner);
  }, runner.heartbeatInterval).unref();
}

function stopThread(runner: RunnerState): void {
  clearInterval(runner[THREAD]);
  delete runner[THREAD];
  delete runner[ANSWERED];
  delete runner.consumerGroup[BEATING];
}

const PATCHED = Symbol('kcm-bus: a heartbeat thread');
const THREAD = Symbol("kcm-bus: the runner's heartbeat thread");
const BATCHES = Symbol("kcm-bus: the runner's batches under way");
const STOPPING = Symbol('kcm-bus: the runner stopping');
const ANSWERED = Symbol('kcm-bus: when the coordinator last answered a heartbeat of the thread');
const BEATING = Symbol("kcm-bus: the member's heartbeats sent by its thread");
const REFUSED = Symbol('kcm-bus: a rejoin answer for the runner');
