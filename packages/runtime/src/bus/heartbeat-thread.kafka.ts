import { createRequire } from 'node:module';

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

/** GroupState is what the thread reads and sets of kafkajs's ConsumerGroup: the member, and when it last heartbeat. */
type GroupState = {
  readonly groupId: string;
  readonly memberId: string | null;
  readonly generationId: number;
  readonly coordinator?: Coordinator;
  lastRequest: number;
};

/** RunnerState is what the thread reads of kafkajs's Runner (src/consumer/runner.js), and what it keeps there. */
export type RunnerState = {
  readonly running: boolean;
  readonly heartbeatInterval: number;
  readonly consumerGroup: GroupState;
  [THREAD]?: ReturnType<typeof setInterval>;
  [BATCHES]?: Set<{ readonly since: number }>;
  [STOPPING]?: true;
};

type RunnerProto = {
  start(this: RunnerState): Promise<void>;
  stop(this: RunnerState): Promise<void>;
  handleBatch(this: RunnerState, batch: unknown): Promise<void>;
};

/** Runner is kafkajs 2.2.4's consumer runner, loaded from its source (the package has no `exports` map). */
export const Runner = createRequire(import.meta.url)('kafkajs/src/consumer/runner.js') as { prototype: RunnerProto };

/**
 * beat is one turn of a member's heartbeat thread (the Java consumer's AbstractCoordinator.HeartbeatThread): a
 * Heartbeat sent straight to the group's coordinator, not behind an earlier one still unanswered. kafkajs 2.2.4
 * heartbeats only between fetches and between records, one at a time: an idle member's fetch waits 5 s
 * (maxWaitTimeInMs) for records, so it heartbeat every 5 s in a 6 s session, and a heartbeat the coordinator answered
 * late (Kafka 4's coordinator answers once its __consumer_offsets partition's high watermark moves, which waits for
 * a dead follower until the controller fences it, 9 s) cost the member its session at the next fetch: the group
 * rebalanced and every member restored. The coordinator counts a heartbeat when it arrives, so one sent every
 * interval keeps the session whatever the answers' delay. No turn beats for a member without an id (joining) or
 * while a batch has run past maxMs (a stuck handler leaves, as past max.poll.interval.ms). An answer that is an
 * error is left to kafkajs: the runner's own next heartbeat is made due, meets the same answer and acts on it (a
 * rebalance rejoins, a moved coordinator is looked up again); a success makes the runner's next one wait an interval.
 */
export function beat(runner: RunnerState, now: number, maxMs = MAX_POLL_INTERVAL_MS): void {
  const group = runner.consumerGroup;
  const { groupId, memberId, generationId, coordinator } = group;
  if (!memberId || !coordinator) return;
  for (const batch of runner[BATCHES] ?? []) if (now - batch.since > maxMs) return;
  coordinator.heartbeat({ groupId, memberId, groupGenerationId: generationId }).then(
    () => (group.lastRequest = Date.now()),
    () => (group.lastRequest = 0),
  );
}

/**
 * heartbeatInBackground gives every consumer of the class a heartbeat thread: from the moment its runner runs
 * (joined and synced) until its stop has left the group (a stop waits for the fetches in flight, up to 5 s, and a
 * member whose session ran out meanwhile rejoined on its way out) or it crashed, beat every heartbeat interval; each
 * batch is counted from its start to its end.
 * Idempotent: the prototype is patched once.
 */
export function heartbeatInBackground(runner: { prototype: RunnerProto } = Runner, maxMs = MAX_POLL_INTERVAL_MS): void {
  const proto = runner.prototype as RunnerProto & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  const { start, stop, handleBatch } = proto;
  proto.start = async function (this: RunnerState) {
    await start.call(this);
    if (!this.running || this[THREAD]) return;
    this[THREAD] = setInterval(() => {
      if (this.running || this[STOPPING]) beat(this, Date.now(), maxMs);
      else stopThread(this);
    }, this.heartbeatInterval).unref();
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

function stopThread(runner: RunnerState): void {
  clearInterval(runner[THREAD]);
  delete runner[THREAD];
}

const PATCHED = Symbol('kcm-bus: a heartbeat thread');
const THREAD = Symbol("kcm-bus: the runner's heartbeat thread");
const BATCHES = Symbol("kcm-bus: the runner's batches under way");
const STOPPING = Symbol('kcm-bus: the runner stopping');
