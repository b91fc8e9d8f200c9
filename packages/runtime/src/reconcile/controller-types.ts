import type { ExpectationsStore } from '../expectations/expectations.ts';
import type { MutationResult } from '../mutation/mutation-result.ts';
import type { Mutation, MutationCause } from '../mutation/mutation.ts';
import type { Logger } from '../service/log.ts';
import type { Workqueue } from '../workqueue/workqueue.ts';
import type { ExpectationsView, ReconcileResult } from './reconciler.ts';

/**
 * InputEvent is one watch record as a controller sees it: `live` is false while its partition replays history;
 * resourceVersion is the envelope's (the version the watch reported).
 */
export type InputEvent = {
  readonly cause: MutationCause;
  readonly type: 'Applied' | 'Deleted';
  readonly key: string;
  readonly object: unknown;
  readonly resourceVersion: string;
  readonly live: boolean;
};

/** Observation is what an event tells expectations (upstream's CreationObserved / DeletionObserved) of key's podKey. */
export type Observation = { readonly kind: 'creation' | 'deletion'; readonly key: string; readonly podKey: string };

/** ObservedKeys are the pending creations and deletions a controller's stores show done. */
export type ObservedKeys = { readonly creates: readonly string[]; readonly deletes: readonly string[] };

/** HandlerOutput is what an event handler decides: keys to reconcile (now or later) and expectation observations. */
export type HandlerOutput = {
  readonly enqueue: readonly string[];
  readonly enqueueAfter?: readonly { readonly key: string; readonly ms: number }[];
  readonly observed?: readonly Observation[];
  /** forget: keys whose expectations are void (the owner was deleted or recreated); applied for live records only. */
  readonly forget?: readonly string[];
};

/**
 * ReconcileInput is everything a pure reconcile reads. attempt counts the syncs of the key since its cause last
 * changed (0 for the first): with the cause it makes the sync's mutation ids, so a replay of the same input names
 * the same objects while a retry (backoff, requeueAfter) names new ones.
 */
export type ReconcileInput = {
  readonly expectations: ExpectationsView;
  readonly failures: readonly MutationResult[];
  readonly now: Date;
  readonly cause: readonly MutationCause[];
  readonly attempt: number;
};

/** ControllerSpec is a controller's pure part: how events map to keys, and the reconcile of one key. */
export type ControllerSpec = {
  readonly name: string;
  /** onEvent applies the event to the controller's stores and says what to reconcile (upstream's event handlers). */
  readonly onEvent: (topic: string, event: InputEvent) => HandlerOutput;
  readonly reconcile: (key: string, input: ReconcileInput) => ReconcileResult;
  /**
   * observedInStores says which of a key's pending creations and deletions its stores already show done: the
   * objects created exist, the objects deleted are gone or terminating. A sync lowers those before it reads its
   * expectations, which covers observations no live event made: records replayed after a restart or a rebalance.
   */
  readonly observedInStores: (key: string, pending: ExpectationsView) => ObservedKeys;
};

/** ControllerPorts are the controller's I/O: expectations, publishing mutations, the cache-sync gate, the queue. */
export type ControllerPorts = {
  readonly expectations: ExpectationsStore;
  readonly publish: (mutations: readonly Mutation[]) => Promise<void>;
  /** partitionOf is the partition number of a key in every co-partitioned input topic. */
  readonly partitionOf: (key: string) => number;
  /** partitionSynced: the partition caught up with its history (the cache-sync gate). */
  readonly partitionSynced: (partition: number) => boolean;
  readonly queue: Workqueue<string>;
  readonly log: Logger;
  readonly now: () => Date;
};
