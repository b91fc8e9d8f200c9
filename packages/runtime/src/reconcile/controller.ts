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

/** Observation is what an event tells expectations (upstream's CreationObserved / DeletionObserved). */
export type Observation = { readonly kind: 'creation'; readonly key: string } | { readonly kind: 'deletion'; readonly key: string; readonly podKey: string };

/** HandlerOutput is what an event handler decides: keys to reconcile (now or later) and expectation observations. */
export type HandlerOutput = {
  readonly enqueue: readonly string[];
  readonly enqueueAfter?: readonly { readonly key: string; readonly ms: number }[];
  readonly observed?: readonly Observation[];
  /** forget: keys whose expectations are void (the owner was deleted or recreated); applied for live records only. */
  readonly forget?: readonly string[];
};

/** ReconcileInput is everything a pure reconcile reads. */
export type ReconcileInput = {
  readonly expectations: ExpectationsView;
  readonly failures: readonly MutationResult[];
  readonly now: Date;
  readonly cause: readonly MutationCause[];
};

/** ControllerSpec is a controller's pure part: how events map to keys, and the reconcile of one key. */
export type ControllerSpec = {
  readonly name: string;
  /** onEvent applies the event to the controller's stores and says what to reconcile (upstream's event handlers). */
  readonly onEvent: (topic: string, event: InputEvent) => HandlerOutput;
  readonly reconcile: (key: string, input: ReconcileInput) => ReconcileResult;
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

  constructor(spec: ControllerSpec, ports: ControllerPorts) {
    this.#spec = spec;
    this.#ports = ports;
  }

  /** onEvent feeds one watch record; expectations count only live records, never a replay of history. */
  async onEvent(topic: string, event: InputEvent): Promise<void> {
    const out = this.#spec.onEvent(topic, event);
    if (event.live) for (const o of out.observed ?? []) await this.#observe(o);
    if (event.live) for (const key of out.forget ?? []) await this.#ports.expectations.delete(key);
    for (const key of out.enqueue) this.#enqueue(key, event.cause);
    for (const { key, ms } of out.enqueueAfter ?? []) this.#ports.queue.addAfter(key, ms);
  }

  /**
   * onResult feeds one of this controller's results; a write that did not happen lowers the expectation raised for
   * it and reaches the key's next sync after the key's backoff, as an error does upstream (AddRateLimited).
   */
  async onResult(result: MutationResult, cause: MutationCause, live: boolean): Promise<void> {
    const key = result.reconcileKey;
    // A decoded null comes back absent (schemas/generator: null and absent are alike), hence the loose check.
    if (result.controller !== this.#spec.name || key == null || result.outcome === 'Applied') return;
    if (live && result.verb === 'Create' && result.outcome !== 'AlreadyDone') await this.#ports.expectations.lower(key, 1, []);
    if (live && result.verb === 'Delete') await this.#ports.expectations.deletionObserved(key, objectKey(result.target));
    if (result.outcome === 'AlreadyDone') return;
    this.#failures.set(key, [...this.#failures.get(key) ?? [], result]);
    this.#causes.set(key, [cause]);
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
    const result = this.#spec.reconcile(key, { expectations: await this.#ports.expectations.view(key), failures, now: this.#ports.now(), cause });
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

  #observe(o: Observation): Promise<void> {
    return o.kind === 'creation' ? this.#ports.expectations.creationObserved(o.key) : this.#ports.expectations.deletionObserved(o.key, o.podKey);
  }

  #enqueue(key: string, cause: MutationCause): void {
    this.#causes.set(key, [cause]);
    this.#ports.queue.add(key);
  }

  /** forget drops the state of keys whose partitions this member lost. */
  forget(pred: (key: string) => boolean): void {
    for (const key of [...this.#failures.keys()]) if (pred(key)) this.#failures.delete(key);
    for (const key of [...this.#causes.keys()]) if (pred(key)) this.#causes.delete(key);
    this.#ports.queue.dropWhere(pred);
    this.#ports.queue.forgetWhere(pred);
  }
}
