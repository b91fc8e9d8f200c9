import type { ObjectEventType } from '@kcm-bus/schemas/watch-record.ts';
import type { WorkersFlag } from '../catalog/entry.ts';
import type { FlagReader, FlagSpec } from '../service/flags.ts';
import type { Logger } from '../service/log.ts';
import type { Indexers } from '../store/indices.ts';
import type { HandlerOutput, InputScope, ObservedKeys, ReconcileInput } from './controller-types.ts';
import type { MetricsRegistry } from './metrics.prom.ts';
import type { ExpectationsView, Lister, Decision } from './reconciler.ts';

/**
 * Input declares one watch topic a controller reads: its scope, the indexes its listers need (client-go's
 * Indexers), and an optional projection that keeps only the fields the controller reads (applied to every object
 * before it is stored, like an informer's transform). `fields` names what the projection reads of an object (JSON
 * paths, dotted, lists and maps walked through: `spec.initContainers.restartPolicy`): records are then decoded with
 * a reader schema cut down to them (projectSchema), so the fields the projection would drop are never built; without
 * a projection, `fields` alone is one (the store keeps what they decode).
 */
export type Input<T> = {
  readonly topic: string;
  readonly scope: InputScope;
  readonly indexers?: Indexers<T>;
  readonly project?: (object: unknown) => T;
  readonly fields?: readonly string[];
};

/** partitioned declares a co-partitioned input of objects of type T. */
export function partitioned<T>(topic: string, options: Omit<Input<T>, 'topic' | 'scope'> = {}): Input<T> {
  return { ...options, topic, scope: 'partitioned' };
}

/** global declares an input every member reads whole. */
export function global<T>(topic: string, options: Omit<Input<T>, 'topic' | 'scope'> = {}): Input<T> {
  return { ...options, topic, scope: 'global' };
}

/**
 * ObjectEvent is what an event handler gets once the runtime applied a record to the input's store: the object's
 * new state (Applied) or last known state (Deleted), the state the store held before (undefined: an add), whether
 * the record is live or restored (a partition's backlog), and when the watcher read it (the pipeline's time; absent for the adds
 * a member makes from its store as it becomes active). Mirrors the arguments of client-go's ResourceEventHandler funcs.
 */
export type ObjectEvent<T> = {
  readonly type: ObjectEventType;
  readonly key: string;
  readonly object: T;
  readonly old: T | undefined;
  readonly live: boolean;
  readonly observedAt?: Date | undefined;
};

/** Inputs maps each input's name to the type of its objects (e.g. `{ pods: Pod; rcs: ReplicationController }`). */
export type Inputs = Readonly<Record<string, unknown>>;

/** Listers are the read-only views of a controller's stores, by input name. */
export type Listers<L extends Inputs> = { readonly [K in keyof L]: Lister<L[K]> };

/** Handlers are a controller's event handlers, one per input (upstream's AddFunc/UpdateFunc/DeleteFunc in one). */
export type Handlers<L extends Inputs> = { readonly [K in keyof L]: (event: ObjectEvent<L[K]>) => HandlerOutput };

/**
 * ControllerSpec is a controller's pure part: its handlers say which keys an event touches, reconcile decides
 * one key from the listers it was built on, and, for a controller that keeps expectations, observedInStores says
 * which pending creations and deletions its stores already show done (objects created exist, objects deleted are
 * gone or terminating): a sync lowers those first, which covers observations restored after a restart.
 */
export type ControllerSpec<L extends Inputs> = {
  readonly handlers: Handlers<L>;
  readonly reconcile: (key: string, input: ReconcileInput) => Decision;
  readonly observedInStores?: (key: string, pending: ExpectationsView) => ObservedKeys;
  /**
   * ownsKey tells this spec's keys from those of another part of the same controller (node lifecycle's node part
   * and pod part share its name, so each reads the other's results); absent, every key is its own.
   */
  readonly ownsKey?: (key: string) => boolean;
  /**
   * maxRetries: after this many rate-limited retries in a row a failing key is dropped out of the queue until its
   * next event (upstream's handleErr with maxRetries, e.g. the endpoints controller's 15); absent, it is retried
   * for as long as it fails (the RC controller's processNextWorkItem).
   */
  readonly maxRetries?: number;
  /**
   * waitsForOwnWrites: false lets a key sync while its last writes are unanswered or not yet read back, for a
   * controller that tracks its own writes per object (node lifecycle, as upstream's, which has no ConsistencyStore):
   * the runtime's hold (ReadYourWrites) would stop its monitor pass, and with it the stale-input check, for as long
   * as the watcher is down. Absent, the key waits, as upstream's ReplicaSet controller does.
   */
  readonly waitsForOwnWrites?: false;
};

/**
 * InputWatermarks say how fresh a controller's view of each input is: watermark(input) is the watcher's time up to
 * which the input is known complete here, the oldest of its partitions' newest times, each brought by a watermark
 * record or by any record's own observedAt (undefined until every partition brought one). A controller that judges by elapsed time (node lifecycle) compares it with its clock, so
 * a stalled pipeline is seen as stale input, never as silent objects.
 */
export interface InputWatermarks<L extends Inputs> {
  /** watermark(input, key): with a key, the watermark of the one partition that key's records are on (if read here). */
  watermark(input: keyof L & string, key?: string): Date | undefined;
}

/**
 * SpecContext is what a controller's spec is built with besides its stores: its flags, the inputs' watermarks, a
 * logger for what it must tell the operator, and the service's metrics registry for its own series (*.prom.ts code only).
 */
export type SpecContext<L extends Inputs> = {
  readonly flags: FlagReader;
  readonly watermarks: InputWatermarks<L>;
  readonly log: Logger;
  readonly registry: MetricsRegistry;
};

export type { WorkersFlag } from '../catalog/entry.ts';

/**
 * Tick asks for `keys` to be enqueued every period (upstream's wait.Until loops, e.g. node lifecycle's
 * monitorNodeHealth every --node-monitor-period); the flag gives the period as a Go duration (`5s`).
 */
export type Tick = {
  readonly flag: string;
  readonly default: string;
  readonly help: string;
  readonly keys: readonly string[];
};

/**
 * ControllerDeclaration is all a controller says about itself; the runtime builds the stores, applies records,
 * gates keys on cache sync, drops lost partitions' state, reports cache sizes and probes, and starts and stops
 * everything (runController).
 */
export type ControllerDeclaration<L extends Inputs> = {
  /** service is the deployable's name (`reconciler-rc`): logs, metrics port, consumer group `kcm-bus-<service>`. */
  readonly service: string;
  /** name is upstream's controller name (`--controllers`), the `controller` of every mutation it publishes. */
  readonly name: string;
  /** workqueue is upstream's workqueue name (the `name` label of the workqueue_* metrics). */
  readonly workqueue: string;
  readonly inputs: { readonly [K in keyof L]: Input<L[K]> };
  readonly workers: WorkersFlag;
  readonly flags?: readonly FlagSpec[];
  /** expectations: the controller keeps expectations in Redis (and must give observedInStores). */
  readonly expectations?: boolean;
  /** singleton: one member of the group is active at a time (upstream's leader); the others keep warm stores. */
  readonly singleton?: boolean;
  /**
   * fetchLingerMs (a singleton's only) holds the next fetch of its inputs that long after one that brought records:
   * for a controller that reads an input at a periodic pass, not record by record (node lifecycle reads Leases at
   * each --node-monitor-period), where every renewal would otherwise be a fetch of its own.
   */
  readonly fetchLingerMs?: number;
  readonly tick?: Tick;
  /**
   * retryBackoff is the per-key backoff of failed syncs when it is not client-go's default (5 ms doubling to 1000 s):
   * the endpointslice controller's starts at 1 s (its defaultSyncBackOff).
   */
  readonly retryBackoff?: RetryBackoff;
  readonly spec: (listers: Listers<L>, context: SpecContext<L>) => ControllerSpec<L>;
};

/** RetryBackoff is a workqueue's per-key failure backoff: the first delay, doubled per failure, up to the last. */
export type RetryBackoff = { readonly baseDelayMs: number; readonly maxDelayMs: number };
