import type { ExpectationChange, ExpectationsView } from '../reconcile/reconciler.ts';
import type { FlagSpec } from '../service/flags.ts';

/**
 * ControlleeExpectations is one controller key's record: creations (add) and deletions (del) still expected, the
 * pod keys whose deletion is expected (UID tracking: a pod marked for deletion and then deleted counts once), and
 * when the record was set (ms). Counts may go negative, as upstream's. Mirrors ControlleeExpectations + UIDSet.
 */
export type ControlleeExpectations = {
  readonly add: number;
  readonly del: number;
  readonly deleteKeys: readonly string[];
  readonly timestamp: number;
};

/**
 * DEFAULT_EXPECTATIONS_TTL_SECONDS is 10 minutes, twice upstream's ExpectationsTimeout (5 min). Upstream observes
 * its own creates within a watch round trip; here an observation also waits for the writer's QPS budget (500 creates
 * at 20 qps is 25 s), the watcher, Kafka and consumer lag, or a replay after a restart. An expectation that expires
 * before its observation arrives lets a sync act on stale stores and over-create, so the TTL must cover that lag.
 */
export const DEFAULT_EXPECTATIONS_TTL_SECONDS = 600;

/** EXPECTATIONS_FLAGS are the flags of a reconciler that keeps expectations. */
export const EXPECTATIONS_FLAGS: readonly FlagSpec[] = [
  {
    name: 'expectations-ttl-seconds', type: 'number', default: DEFAULT_EXPECTATIONS_TTL_SECONDS,
    help: 'Seconds after which unfulfilled expectations no longer hold a sync back (upstream: 300). It must exceed the '
      + 'pipeline lag from a published mutation to its observation on the watch topic (writer QPS, Kafka, replay).',
  },
];

/** expectCreations is the record of a sync about to create adds objects. Mirrors ControllerExpectations.ExpectCreations. */
export function expectCreations(adds: number, now: number): ControlleeExpectations {
  return { add: adds, del: 0, deleteKeys: [], timestamp: now };
}

/**
 * expectDeletions is the record of a sync about to delete these pods: del is the number of distinct keys.
 * Mirrors UIDTrackingControllerExpectations.ExpectDeletions.
 */
export function expectDeletions(podKeys: readonly string[], now: number): ControlleeExpectations {
  const deleteKeys = [...new Set(podKeys)];
  return { add: 0, del: deleteKeys.length, deleteKeys, timestamp: now };
}

/**
 * recordFor is the record that replaces a key's record for a change (undefined: the record is deleted). A new record
 * replaces the whole previous one, its delete keys included. Mirrors SetExpectations / DeleteExpectations.
 */
export function recordFor(change: ExpectationChange, now: number): ControlleeExpectations | undefined {
  switch (change.type) {
    case 'ExpectCreations': return expectCreations(change.adds, now);
    case 'ExpectDeletions': return expectDeletions(change.podKeys, now);
    case 'DeleteExpectations': return undefined;
  }
}

/**
 * lowerExpectations lowers add by adds and del by one for each of podKeys that is tracked, which it stops tracking:
 * an untracked key lowers nothing. The timestamp is kept. Mirrors LowerExpectations + UIDTracking DeletionObserved.
 */
export function lowerExpectations(record: ControlleeExpectations, adds: number, podKeys: readonly string[]): ControlleeExpectations {
  const gone = new Set(podKeys.filter((key) => record.deleteKeys.includes(key)));
  const deleteKeys = record.deleteKeys.filter((key) => !gone.has(key));
  return { ...record, add: record.add - adds, del: record.del - gone.size, deleteKeys };
}

/** creationObserved lowers add by one. Mirrors ControllerExpectations.CreationObserved. */
export function creationObserved(record: ControlleeExpectations): ControlleeExpectations {
  return lowerExpectations(record, 1, []);
}

/** deletionObserved lowers del by one if podKey is tracked. Mirrors UIDTrackingControllerExpectations.DeletionObserved. */
export function deletionObserved(record: ControlleeExpectations, podKey: string): ControlleeExpectations {
  return lowerExpectations(record, 0, [podKey]);
}

/** fulfilled: nothing more is expected (add ≤ 0 and del ≤ 0). Mirrors ControlleeExpectations.Fulfilled. */
export function fulfilled(record: ControlleeExpectations): boolean {
  return record.add <= 0 && record.del <= 0;
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
export function expectationsView(record: ControlleeExpectations | undefined, now: number, ttlMs: number): ExpectationsView {
  const live = record !== undefined && !isExpired(record, now, ttlMs) ? record : undefined;
  return { satisfied: satisfiedExpectations(live, now, ttlMs), pendingDeletes: live ? [...live.deleteKeys].sort() : [] };
}

/**
 * ExpectationsStore keeps every controller key's expectations where all replicas see them. Each call is atomic
 * per key; observations of a key without a record do nothing (upstream's LowerExpectations). A failing store
 * rejects: the caller retries the sync, unlike upstream, which forces a sync when its store errs (over-creation).
 */
export interface ExpectationsStore {
  /** view reads the key's record as SatisfiedExpectations and the pending delete keys. */
  view(key: string): Promise<ExpectationsView>;
  /** set replaces the key's record (or deletes it), before the sync's mutations are published. */
  set(key: string, change: ExpectationChange): Promise<void>;
  /** creationObserved: one expected creation was seen on the watch topic. */
  creationObserved(key: string): Promise<void>;
  /** deletionObserved: the pod was seen deleted (or marked for deletion); counts once per tracked key. */
  deletionObserved(key: string, podKey: string): Promise<void>;
  /** lower undoes expectations of mutations that failed: adds creations and the given tracked deletions. */
  lower(key: string, adds: number, podKeys: readonly string[]): Promise<void>;
  /** delete forgets the key's record and delete keys (the controller object is gone). Mirrors DeleteExpectations. */
  delete(key: string): Promise<void>;
}
