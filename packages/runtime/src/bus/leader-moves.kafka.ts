import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';

/** GroupState is what the change reads of kafkajs's ConsumerGroup: its cluster, whose metadata names the leaders. */
type GroupState = { readonly cluster: { refreshMetadata(): Promise<void> } };
type Recover = (this: GroupState, e: unknown) => Promise<void>;

/**
 * MemberState is what the heartbeat's change reads and sets of a ConsumerGroup: the group's coordinator (kafkajs's
 * Broker) and the offset manager's copy of it (null before the first join), and when it last heartbeat.
 */
export type MemberState = {
  readonly groupId: string;
  readonly cluster: { findGroupCoordinator(args: { groupId: string }): Promise<unknown> };
  coordinator: unknown;
  offsetManager: { coordinator: unknown } | null;
  lastRequest: number;
  [LOOKUP]?: Lookup;
};
type Heartbeat = (this: MemberState, args: { interval: number }) => Promise<void>;

/** Lookup is a lookup of the member's coordinator under way: when it started. */
type Lookup = { readonly since: number };

/**
 * LOOKUP_PATIENCE_MS is how long a lookup under way keeps the next from starting: one sent to a broker stopped with
 * its connections open waits the request timeout (30 s), and the next, starting past this, goes elsewhere (the
 * stopped broker then holds an overdue request: least-loaded.kafka.ts).
 */
export const LOOKUP_PATIENCE_MS = 3000;

/** ConsumerGroupClass is the part of kafkajs's ConsumerGroup (src/consumer/consumerGroup.js) the change touches. */
type ConsumerGroupClass = { prototype: { recoverFromFetch: Recover; heartbeat: Heartbeat } };

/**
 * ConsumerGroup is kafkajs 2.2.4's consumer group, loaded from its source (the package has no `exports` map, so the
 * path is stable for the version package-lock pins): every consumer's fetch recovers through its prototype.
 */
export const ConsumerGroup = createRequire(import.meta.url)(
  'kafkajs/src/consumer/consumerGroup.js',
) as ConsumerGroupClass;

/** LEADER_MOVED are the fetch answers that say a partition's leader is another broker now, or about to be. */
const LEADER_MOVED = new Set([
  'NOT_LEADER_FOR_PARTITION',
  'LEADER_NOT_AVAILABLE',
  'FENCED_LEADER_EPOCH',
  'UNKNOWN_LEADER_EPOCH',
]);

/** UNREACHED are the failures of a fetch whose broker did not answer: refused, broken, or silent past the timeout. */
const UNREACHED = new Set(['KafkaJSConnectionError', 'KafkaJSRequestTimeoutError']);

/**
 * UNREACHED_PAUSE_MS is how long a fetch that could not reach its broker waits before it looks the leaders up again
 * and lets its fetcher try: the Java client's reconnect.backoff.ms grows from 50 ms to 1 s; a killed broker's
 * partitions have no other leader until the controller fences it (broker.session.timeout.ms, 9 s).
 */
export const UNREACHED_PAUSE_MS = 250;

/**
 * recoverInPlace is a fetch's recovery that keeps the member in its group and the other brokers' fetchers running
 * when a leader moves, as the Java consumer does (its Fetcher asks for new metadata and fetches on). kafkajs 2.2.4
 * answers a moved leader by refreshing its metadata and rejoining the group: a rebalance of every member, and a
 * restore of each one's partitions (onAssigned), for an answer that changes no assignment. A broker that does not
 * answer it throws to its fetch manager, which stops every broker's fetcher, waiting for their long polls (up to
 * maxWaitTime), and starts them again after the consumer's retry backoff, for as long as the dead broker leads. Here
 * both look the leaders up again (after UNREACHED_PAUSE_MS when the broker did not answer) and the fetch returns no
 * batch: its fetcher fetches again from whoever leads now, and kafkajs's own check (validateShouldRebalance) starts
 * the fetchers again once the set of brokers changed. Every other failure recovers as kafkajs does.
 */
export function recoverInPlace(recover: Recover, pauseMs = UNREACHED_PAUSE_MS): Recover {
  return async function (this: GroupState, e: unknown) {
    const { type, name } = (e ?? {}) as { type?: unknown; name?: unknown };
    if (UNREACHED.has(String(name))) await sleep(pauseMs);
    else if (!LEADER_MOVED.has(String(type))) return recover.call(this, e);
    await this.cluster.refreshMetadata();
  };
}

/** COORDINATOR_MOVED are the heartbeat answers that say the group's coordinator is another broker now, or none yet. */
const COORDINATOR_MOVED = new Set(['NOT_COORDINATOR_FOR_GROUP', 'GROUP_COORDINATOR_NOT_AVAILABLE']);

/** coordinatorLost: a heartbeat's failure says the coordinator moved, or could not be reached; look it up again. */
export function coordinatorLost(err: unknown): boolean {
  const { type, name } = (err ?? {}) as { type?: unknown; name?: unknown };
  return UNREACHED.has(String(name)) || COORDINATOR_MOVED.has(String(type));
}

/**
 * heartbeatInPlace is a member's heartbeat that follows its group's coordinator when it moves, as the Java consumer
 * does (its coordinator marked unknown, looked up again, heartbeats resumed; no rejoin). kafkajs 2.2.4 keeps the
 * coordinator it joined through: a dead one fails every heartbeat, each failure thrown to the fetch manager, which
 * stops every fetcher and starts them again after a backoff, until the broker is back and answers that it is not the
 * coordinator, and only then rejoins: a rebalance, and every member's restore. Here a heartbeat that failed so looks
 * the coordinator up again in the background (kafkajs's Cluster.findGroupCoordinator, which retries until a live
 * broker answers for the group), and heartbeats are skipped until it is found: the fetchers keep running. The new
 * coordinator loads the group with its members and generation from __consumer_offsets, so the next heartbeat counts
 * (if the member's session ran out meanwhile, the answer is UNKNOWN_MEMBER_ID, and kafkajs rejoins). Every other
 * failure is thrown as kafkajs has it.
 */
export function heartbeatInPlace(heartbeat: Heartbeat): Heartbeat {
  return async function (this: MemberState, args: { interval: number }) {
    if (this[LOOKUP]) return;
    try {
      await heartbeat.call(this, args);
    } catch (e) {
      if (!coordinatorLost(e)) throw e;
      this.lastRequest = Date.now();
      lookUpCoordinator(this);
    }
  };
}

/**
 * lookUpCoordinator looks the member's group coordinator up again in the background (kafkajs's
 * Cluster.findGroupCoordinator, which retries until a live broker answers for the group), unless a lookup started
 * less than LOOKUP_PATIENCE_MS ago is under way; heartbeatInPlace skips the member's heartbeats until it ends. A
 * lookup that a later one superseded is dropped when it ends: its broker answered late.
 */
export function lookUpCoordinator(member: MemberState, now = Date.now()): void {
  const under = member[LOOKUP];
  if (under && now - under.since < LOOKUP_PATIENCE_MS) return;
  const lookup: Lookup = { since: now };
  member[LOOKUP] = lookup;
  void findCoordinatorAgain(member, lookup).finally(() => {
    if (member[LOOKUP] === lookup) delete member[LOOKUP];
  });
}

/** findCoordinatorAgain points the member and its offset manager at the group's coordinator; on failure, neither. */
async function findCoordinatorAgain(member: MemberState, lookup: Lookup): Promise<void> {
  const coordinator = await member.cluster.findGroupCoordinator({ groupId: member.groupId }).catch(() => undefined);
  if (coordinator === undefined || member[LOOKUP] !== lookup) return;
  member.coordinator = coordinator;
  if (member.offsetManager) member.offsetManager.coordinator = coordinator;
}

/**
 * followLeaderMoves makes every consumer of the class recoverInPlace and heartbeatInPlace: it follows partition
 * leaders and its group's coordinator (the leader of the group's __consumer_offsets partition) when they move.
 * Idempotent: the prototype is patched once.
 */
export function followLeaderMoves(group: ConsumerGroupClass = ConsumerGroup): void {
  const proto = group.prototype as ConsumerGroupClass['prototype'] & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  proto.recoverFromFetch = recoverInPlace(proto.recoverFromFetch);
  proto.heartbeat = heartbeatInPlace(proto.heartbeat);
  proto[PATCHED] = true;
}

const PATCHED = Symbol('kcm-bus: leader moves followed in place');
const LOOKUP = Symbol("kcm-bus: the group's coordinator looked up again");
