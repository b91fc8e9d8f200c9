import type { ExpectationChange, ExpectationsView } from '../controller/reconciler.ts';
import type { FlagSpec } from '../service/flags.ts';

/**
 * ControlleeExpectations is one controller key's record: the object keys (`namespace/name`) whose creation
 * (createKeys) and deletion (deleteKeys) are still expected, and when the record was set (ms). Mirrors
 * ControlleeExpectations + UIDTrackingControllerExpectations, with creations tracked by key as deletions are
 * upstream: the writer names every object it creates after the mutation's id, so the reconcile knows the names,
 * and an observation is idempotent. Upstream counts creations, which only works while each event is seen once;
 * here a restarted or newly assigned replica restores its partitions and may see an event twice.
 */
export type ControlleeExpectations = {
  readonly createKeys: readonly string[];
  readonly deleteKeys: readonly string[];
  readonly timestamp: number;
};

/**
 * DEFAULT_EXPECTATIONS_TTL_SECONDS is upstream's ExpectationsTimeout, 5 minutes. The pipeline's lag from a published
 * mutation to its observation is the writer's QPS budget (500 creates at 20 qps is 25 s), the watcher and Kafka:
 * well inside it, as upstream's own rate-limited creates are. Only a writer stopped for longer than the TTL with
 * creates still queued lets a sync create again; the queued ones then land too and the surplus is deleted, as
 * upstream after its own timeout. Raise the flag if writers may be down that long.
 */
export const DEFAULT_EXPECTATIONS_TTL_SECONDS = 300;

/** EXPECTATIONS_FLAGS are the flags of a reconciler that keeps expectations. */
export const EXPECTATIONS_FLAGS: readonly FlagSpec[] = [
  {
    name: 'expectations-ttl-seconds',
    type: 'number',
    default: DEFAULT_EXPECTATIONS_TTL_SECONDS,
    help:
      "Seconds after which unfulfilled expectations no longer hold a sync back (upstream's 300). It must exceed the " +
      'pipeline lag from a published mutation to its observation (writer QPS, Kafka; a writer outage: raise it if ' +
      'writers may be down longer, or a sync creates again while the first creates are still queued).',
  },
];

/** expectCreations is the record of a sync about to create these objects. Mirrors ControllerExpectations.ExpectCreations. */
export function expectCreations(objectKeys: readonly string[], now: number): ControlleeExpectations {
  return { createKeys: [...new Set(objectKeys)], deleteKeys: [], timestamp: now };
}

/** expectDeletions is the record of a sync about to delete these pods. Mirrors UIDTrackingControllerExpectations.ExpectDeletions. */
export function expectDeletions(objectKeys: readonly string[], now: number): ControlleeExpectations {
  return { createKeys: [], deleteKeys: [...new Set(objectKeys)], timestamp: now };
}

/**
 * recordFor is the record that replaces a key's record for a change (undefined: the record is deleted). A new record
 * replaces the whole previous one. Mirrors SetExpectations / DeleteExpectations.
 */
export function recordFor(change: ExpectationChange, now: number): ControlleeExpectations | undefined {
  switch (change.type) {
    case 'ExpectCreations':
      return expectCreations(change.objectKeys, now);
    case 'ExpectDeletions':
      return expectDeletions(change.objectKeys, now);
    case 'DeleteExpectations':
      return undefined;
  }
}

/**
 * lowerExpectations stops expecting the given creations and deletions; keys not tracked lower nothing, and the
 * timestamp is kept. Mirrors LowerExpectations, CreationObserved and UIDTracking's DeletionObserved.
 */
export function lowerExpectations(
  record: ControlleeExpectations,
  creates: readonly string[],
  deletes: readonly string[],
): ControlleeExpectations {
  return {
    ...record,
    createKeys: record.createKeys.filter((k) => !creates.includes(k)),
    deleteKeys: record.deleteKeys.filter((k) => !deletes.includes(k)),
  };
}

/** fulfilled: nothing more is expected. Mirrors ControlleeExpectations.Fulfilled (add ≤ 0 and del ≤ 0). */
export function fulfilled(record: ControlleeExpectations): boolean {
  return record.createKeys.length === 0 && record.deleteKeys.length === 0;
}

/** isExpired: the record was set more than ttlMs ago. Mirrors ControlleeExpectations.isExpired. */
export function isExpired(record: ControlleeExpectations, now: number, ttlMs: number): boolean {
  return now - record.timestamp > ttlMs;
}

/**
 * satisfiedExpectations: a sync may act unless a record exists that is neither fulfilled nor expired.
 * Mirrors ControllerExpectations.SatisfiedExpectations.
 */
export function satisfiedExpectations(record: ControlleeExpectations | undefined, now: number, ttlMs: number): boolean {
  return record === undefined || fulfilled(record) || isExpired(record, now, ttlMs);
}

/**
 * expectationsView is what a reconcile reads. An expired record reads as no record (no pending deletes): upstream's
 * comments treat "never recorded" and "TTL expired" alike, and the Redis store drops records at their TTL.
 */
export function expectationsView(
  record: ControlleeExpectations | undefined,
  now: number,
  ttlMs: number,
): ExpectationsView {
  const live = record !== undefined && !isExpired(record, now, ttlMs) ? record : undefined;
  const sorted = (keys: readonly string[] | undefined): string[] => [...(keys ?? [])].sort();
  return {
    satisfied: satisfiedExpectations(live, now, ttlMs),
    pendingCreates: sorted(live?.createKeys),
    pendingDeletes: sorted(live?.deleteKeys),
  };
}

/**
 * FencedError: a record change by a member whose fencing token of the key's partition is no longer the newest (a member that
 * lost the partition without knowing it yet: a zombie) or that never took one. Nothing was changed.
 */
export class FencedError extends Error {}

/**
 * ExpectationsStore keeps every controller key's expectations where all replicas see them. Each call is atomic
 * per key and idempotent (an observation restored again changes nothing); observations of a key without a record do
 * nothing (upstream's LowerExpectations). A failing store rejects: the caller retries the sync, unlike upstream,
 * which forces a sync when its store errs (over-creation).
 */
export interface ExpectationsStore {
  /** view reads the key's record as SatisfiedExpectations and the pending object keys. */
  view(key: string): Promise<ExpectationsView>;
  /** set replaces the key's record (or deletes it), before the sync's mutations are published; FencedError: not this member's. */
  set(key: string, change: ExpectationChange): Promise<void>;
  /** lower stops expecting these creations and deletions: observed on the topic or in the store, or failed. */
  lower(key: string, creates: readonly string[], deletes: readonly string[]): Promise<void>;
  /** delete forgets the key's record (the controller object is gone). Mirrors DeleteExpectations. */
  delete(key: string): Promise<void>;
}
