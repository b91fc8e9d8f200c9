import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import type { ExpectationsStore } from '../expectations/expectations.ts';
import type { MutationResult } from '../mutation/mutation-result.ts';
import type { Mutation, MutationCause } from '../mutation/mutation.ts';
import type { Logger } from '../service/log.ts';
import type { Workqueue } from '../workqueue/workqueue.ts';
import type { ExpectationsView, ReconcileResult } from './reconciler.ts';

/** InputEvent is one watch record as a controller sees it; `live` is false while its partition replays history. */
export type InputEvent = {
  readonly cause: MutationCause;
  readonly type: 'Applied' | 'Deleted';
  readonly key: string;
  readonly object: unknown;
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
  readonly synced: (key: string) => boolean;
  readonly queue: Workqueue<string>;
  readonly log: Logger;
  readonly now: () => Date;
};

const NOT_SYNCED_RETRY_MS = 250;

/**
 * Controller runs a spec the way client-go controllers run: events update stores and enqueue keys; workers
 * take keys from a workqueue (never one key on two workers), reconcile them purely, record expectations
 * before publishing the mutations, and requeue rate-limited on error or after requeueAfter. A key whose
 * partition has not caught up with its history waits (WaitForCacheSync). Results of failed mutations lower
 * expectations (upstream: CreationObserved/DeletionObserved after a failed create/delete) and reach the
 * next reconcile as failures.
 */
export class Controller {
  readonly #spec: ControllerSpec;
  readonly #ports: ControllerPorts;
  readonly #causes = new Map<string, MutationCause[]>();
  readonly #failures = new Map<string, MutationResult[]>();
  readonly #attempts = new Map<string, number>();

  constructor(spec: ControllerSpec, ports: ControllerPorts) {
    this.#spec = spec;
    this.#ports = ports;
  }

  /**
   * onEvent feeds one watch record. Live records lower expectations at once, as upstream's handlers do; a replayed
   * record's observation is left to the key's next sync (observedInStores), which also sees pods whose owner was
   * not in the store yet when they were replayed, without a Redis call per replayed record.
   */
  async onEvent(topic: string, event: InputEvent): Promise<void> {
    const out = this.#spec.onEvent(topic, event);
    if (event.live) for (const o of out.observed ?? []) await this.#observe(o);
    if (event.live) for (const key of out.forget ?? []) await this.#ports.expectations.delete(key);
    for (const key of out.enqueue) this.#enqueue(key, event.cause);
    for (const { key, ms } of out.enqueueAfter ?? []) this.#ports.queue.addAfter(key, ms);
  }

  /**
   * onResult feeds one of this controller's results. A create or delete that did not happen is no longer expected
   * (upstream: CreationObserved/DeletionObserved after a failed call), replayed or live: lowering by key is
   * idempotent. A failure is reported by the key's next sync after its backoff (AddRateLimited), live ones only: a
   * restarted member does not report its history again.
   */
  async onResult(result: MutationResult, cause: MutationCause, live: boolean): Promise<void> {
    const key = result.reconcileKey;
    // A decoded null comes back absent (schemas/generator: null and absent are alike), hence the loose check.
    if (result.controller !== this.#spec.name || key == null || result.outcome === 'Applied') return;
    const target = objectKey({ namespace: result.target.namespace, name: result.name ?? result.target.name });
    // A create that met AlreadyExists stays expected until the store holds the object, so no sync runs without it.
    if (result.verb === 'Create' && result.outcome !== 'AlreadyDone') await this.#ports.expectations.lower(key, [target], []);
    if (result.verb === 'Delete') await this.#ports.expectations.lower(key, [], [target]);
    if (result.outcome === 'AlreadyDone' || !live) return;
    this.#failures.set(key, [...this.#failures.get(key) ?? [], result]);
    this.#setCause(key, cause);
    this.#ports.queue.addRateLimited(key);
  }

  /** run starts the workers; each returns when the queue shuts down. */
  run(workers: number): Promise<void[]> {
    return Promise.all(Array.from({ length: workers }, () => this.#worker()));
  }

  async #worker(): Promise<void> {
    for (let key = await this.#ports.queue.get(); key !== undefined; key = await this.#ports.queue.get()) {
      try {
        if (this.#ports.synced(key)) await this.#sync(key);
        else this.#ports.queue.addAfter(key, NOT_SYNCED_RETRY_MS);
      } catch (err) {
        this.#ports.log.error('sync failed', { key, err });
        this.#ports.queue.addRateLimited(key);
      } finally {
        this.#ports.queue.done(key);
      }
    }
  }

  async #sync(key: string): Promise<void> {
    const failures = this.#failures.get(key) ?? [];
    this.#failures.delete(key);
    const cause = this.#causes.get(key) ?? [];
    const attempt = this.#attempts.get(key) ?? 0;
    this.#attempts.set(key, attempt + 1);
    const expectations = await this.#expectations(key);
    const result = this.#spec.reconcile(key, { expectations, failures, now: this.#ports.now(), cause, attempt });
    if (result.expectations?.type === 'DeleteExpectations') await this.#ports.expectations.delete(key);
    else if (result.expectations) await this.#ports.expectations.set(key, result.expectations);
    await this.#ports.publish(result.mutations);
    if (result.error) {
      this.#ports.log.warn('sync error; requeued with backoff', { key, error: result.error });
      this.#ports.queue.addRateLimited(key);
    } else if (result.mutations.length === 0 && failures.length === 0) {
      // The backoff is forgotten only once the key is quiet: a sync that publishes writes has not succeeded yet
      // (their results come later), so a create failing every time keeps backing off as upstream's would.
      this.#ports.queue.forget(key);
    }
    if (result.requeueAfterMs !== undefined) this.#ports.queue.addAfter(key, result.requeueAfterMs);
  }

  /** #expectations reads the key's expectations after lowering what its stores already show done. */
  async #expectations(key: string): Promise<ExpectationsView> {
    const view = await this.#ports.expectations.view(key);
    if (view.satisfied) return view;
    const seen = this.#spec.observedInStores(key, view);
    if (seen.creates.length + seen.deletes.length === 0) return view;
    await this.#ports.expectations.lower(key, seen.creates, seen.deletes);
    return this.#ports.expectations.view(key);
  }

  #observe(o: Observation): Promise<void> {
    return o.kind === 'creation' ? this.#ports.expectations.lower(o.key, [o.podKey], []) : this.#ports.expectations.lower(o.key, [], [o.podKey]);
  }

  #enqueue(key: string, cause: MutationCause): void {
    this.#setCause(key, cause);
    this.#ports.queue.add(key);
  }

  #setCause(key: string, cause: MutationCause): void {
    this.#causes.set(key, [cause]);
    this.#attempts.delete(key);
  }

  /** forget drops the state of keys whose partitions this member lost. */
  forget(pred: (key: string) => boolean): void {
    for (const key of [...this.#failures.keys()]) if (pred(key)) this.#failures.delete(key);
    for (const key of [...this.#causes.keys()]) if (pred(key)) this.#causes.delete(key);
    for (const key of [...this.#attempts.keys()]) if (pred(key)) this.#attempts.delete(key);
    this.#ports.queue.dropWhere(pred);
    this.#ports.queue.forgetWhere(pred);
  }
}
