import type { ObjectEventType } from '@kcm-bus/schemas/watch-record.ts';
import type { ExpectationsStore } from '../expectations/expectations.ts';
import type { MutationResult } from '../mutation/mutation-result.ts';
import type { Mutation, MutationCause } from '../mutation/mutation.ts';
import type { Logger } from '../service/log.ts';
import type { Workqueue } from '../workqueue/workqueue.ts';
import type { ExpectationsView, Decision } from './reconciler.ts';
import type { GoneObject } from './gone-on-write.ts';

/**
 * InputScope says how the members of a controller's group share an input topic: `partitioned` inputs are
 * co-partitioned by namespace and each member reads the partitions the group assigns it; a `global` input is read
 * whole by every member, outside the group's assignment (Kafka Streams' GlobalKTable: small, cluster-scoped state
 * every key may read, such as nodes and leases).
 */
export type InputScope = 'partitioned' | 'global';

/**
 * InputEvent is one watch record as a controller sees it: `live` is false while its partition restores (reads its backlog);
 * resourceVersion is the envelope's (the version the watch reported).
 */
export type InputEvent = {
  readonly cause: MutationCause;
  readonly type: ObjectEventType;
  readonly key: string;
  readonly object: unknown;
  readonly resourceVersion: string;
  readonly live: boolean;
  /** observedAt is when the watcher saw it (the record's own time; undefined if it does not parse). */
  readonly observedAt?: Date | undefined;
};

/**
 * Observation is what an event tells the expectations of controller key `key`: the creation or deletion of the
 * object `objectKey` was seen (upstream's CreationObserved / DeletionObserved).
 */
export type Observation = { readonly kind: 'creation' | 'deletion'; readonly key: string; readonly objectKey: string };

/** ObservedKeys are the pending creations and deletions a controller's stores show done. */
export type ObservedKeys = { readonly creates: readonly string[]; readonly deletes: readonly string[] };

/** HandlerOutput is what an event handler decides: keys to reconcile (now or later) and expectation observations. */
export type HandlerOutput = {
  readonly enqueue: readonly string[];
  readonly enqueueAfter?: readonly { readonly key: string; readonly ms: number }[];
  readonly observed?: readonly Observation[];
  /**
   * enqueueAtCut: keys to sync only once every co-partitioned input is known complete (its watermarks) up to the
   * time the watcher saw this record, for a sync that must see what other topics hold from before its cause (a new
   * RC must see the pods created just before it, or it creates pods where upstream adopts); live records only.
   */
  readonly enqueueAtCut?: readonly string[];
  /** deleteExpectations: keys whose expectations are void (the owner was deleted or recreated); live records only. */
  readonly deleteExpectations?: readonly string[];
};

/**
 * ReconcileInput is everything a pure reconcile reads. attempt counts the syncs of the key since its cause last
 * changed (0 for the first): with the cause it makes the sync's mutation ids, so a restore of the same input names
 * the same objects while a retry (backoff, requeueAfter) names new ones.
 */
export type ReconcileInput = {
  readonly expectations: ExpectationsView;
  readonly failures: readonly MutationResult[];
  /**
   * report: the key's latest live result that carried a report (a DeleteNamespaceContent's contentReport), taken by
   * this sync (the next one gets none but a newer one's).
   */
  readonly report?: MutationResult | undefined;
  readonly now: Date;
  readonly cause: readonly MutationCause[];
  readonly attempt: number;
  /** fresh: the stores are known complete up to the moment an earlier sync of the key asked for a fresh read. */
  readonly fresh: boolean;
};

/**
 * ControllerHooks is what the Controller runs: a record applied to the stores and handled (the runtime's Informers
 * with the controller's handlers), the reconcile of one key, and, for a controller that keeps expectations, which
 * pending creations and deletions its stores already show done (ControllerLogic.observedInStores).
 */
export type ControllerHooks = {
  readonly name: string;
  readonly onEvent: (topic: string, event: InputEvent) => HandlerOutput;
  /**
   * evict drops an object a write found gone from the store that holds it under that uid, and returns what its
   * handler does with the delete (undefined: no store held it; Informers.evict).
   */
  readonly evict?: (gone: GoneObject) => HandlerOutput | undefined;
  /** activated: the handlers' outputs for every object of the global inputs, as adds, once the member is active (Informers.globalAsAdds). */
  readonly activated?: () => HandlerOutput;
  readonly reconcile: (key: string, input: ReconcileInput) => Decision;
  readonly observedInStores?: (key: string, pending: ExpectationsView) => ObservedKeys;
  /** ownsKey: the results of this key are this controller part's (ControllerSpec.ownsKey); absent, all are. */
  readonly ownsKey?: (key: string) => boolean;
  /** maxRetries: a key failing this many retries in a row is dropped out of the queue (ControllerSpec.maxRetries). */
  readonly maxRetries?: number;
  /** waitsForOwnWrites: false, the key's syncs do not wait for its own writes (ControllerSpec.waitsForOwnWrites). */
  readonly waitsForOwnWrites?: false;
};

/**
 * ControllerPorts are the controller's I/O: expectations (undefined: the controller keeps none, and every sync reads
 * them satisfied), publishing mutations, the partition gates, the queue.
 */
export type ControllerPorts = {
  readonly expectations: ExpectationsStore | undefined;
  readonly publish: (mutations: readonly Mutation[]) => Promise<void>;
  /** partitionOf is the partition number of a key in every co-partitioned input topic. */
  readonly partitionOf: (key: string) => number;
  /** watchPartitionOf is the partition an object's records are on in every watch topic (by its `namespace/name` or name). */
  readonly watchPartitionOf: (objectKey: string) => number;
  /** partitionOwned: this member is assigned the partition (keys of other partitions are someone else's). */
  readonly partitionOwned: (partition: number) => boolean;
  /** partitionWatermark: the time up to which every co-partitioned input is known complete on the partition. */
  readonly partitionWatermark: (partition: number) => Date | undefined;
  /** partitionSynced: the partition and every global input synced (the cache-sync gate). */
  readonly partitionSynced: (partition: number) => boolean;
  readonly queue: Workqueue<string>;
  readonly log: Logger;
  readonly now: () => Date;
};

/**
 * ControllerFeed is what the consumer side tells a controller (Controller implements it): each watch record, each
 * of its results, each watermark, the keys of partitions that moved away, and its member becoming active. The
 * consumer side knows the controller side by this port alone.
 */
export interface ControllerFeed {
  onEvent(topic: string, event: InputEvent): Promise<void>;
  onResult(result: MutationResult, cause: MutationCause, live: boolean): Promise<void>;
  onWatermark(topic: string, partition: number, rv: string): void;
  dropWhere(pred: (key: string) => boolean): void;
  onActivated(at: Date): void;
}
