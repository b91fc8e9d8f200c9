import type { Mutation } from '../mutation/mutation.ts';

/**
 * Lister is the read-only view pure code gets of one kind's store (client-go's Lister/Indexer): objects
 * by key (`namespace/name` or `name`), all of them, or those under an index value.
 */
export interface Lister<T> {
  get(key: string): T | undefined;
  list(): readonly T[];
  /** byIndex returns the objects whose index function gave `value` (e.g. index "ownerUID", value an RC's UID). */
  byIndex(index: string, value: string): readonly T[];
}

/**
 * ExpectationsView is what a reconcile reads of a key's expectations (upstream's ControllerExpectations /
 * UIDTrackingControllerExpectations, every expected object tracked by key): satisfied is SatisfiedExpectations (no
 * record, nothing pending, or expired); pendingCreates and pendingDeletes list the object keys (`namespace/name`)
 * whose creation or deletion is still expected.
 */
export type ExpectationsView = {
  readonly satisfied: boolean;
  readonly pendingCreates: readonly string[];
  readonly pendingDeletes: readonly string[];
};

/**
 * ExpectationChange is what a reconcile asks to record before its mutations are published: ExpectCreations or
 * ExpectDeletions of these object keys, replacing the key's record as upstream's SetExpectations does.
 */
export type ExpectationChange =
  | { readonly type: 'ExpectCreations'; readonly objectKeys: readonly string[] }
  | { readonly type: 'ExpectDeletions'; readonly objectKeys: readonly string[] }
  | { readonly type: 'DeleteExpectations' };

/**
 * Decision is a pure reconcile's answer (controller-runtime's Result plus the commands): mutations to
 * publish, the expectation change to record first, and when to look at the key again.
 */
export type Decision = {
  readonly mutations: readonly Mutation[];
  readonly expectations?: ExpectationChange;
  /** requeueAfterMs: reconcile the key again after this long (e.g. minReadySeconds), even with no event. */
  readonly requeueAfterMs?: number;
  /** error: the sync failed (e.g. a FailedCreate was seen): the runtime requeues it rate-limited, as upstream. */
  readonly error?: string;
  /**
   * warning: the sync cannot act on the object as it is (an invalid selector) and waits for it to change: the runtime
   * logs it and does not requeue (upstream's utilruntime.HandleError and return nil).
   */
  readonly warning?: string;
  /**
   * freshRead: the sync needs a view known complete up to now (upstream's uncached GET: canAdopt's recheck, the
   * status update's retry): the key syncs again once every co-partitioned input's watermark passed this moment,
   * and that sync's input says `fresh`.
   */
  readonly freshRead?: true;
};
