import { kindOfTopic, objectKey } from '@kcm-bus/schemas/kinds.ts';
import { CREATE_EXPIRED, type MutationResult, writeFailed } from '../mutation/mutation-result.ts';
import type { Mutation, MutationCause } from '../mutation/mutation.ts';
import type {
  ControllerFeed,
  ControllerPorts,
  ControllerHooks,
  HandlerOutput,
  InputEvent,
} from './controller-types.ts';
import { KeyExpectations } from './key-expectations.ts';
import { KeyStates } from './key-states.ts';
import { FencedError } from '../expectations/expectations.ts';
import { CUT_RETRY_MS, Cuts } from './cuts.ts';
import { ReadYourWrites, type Written } from './read-your-writes.ts';
import { GoneOnWrite } from './gone-on-write.ts';
import { SLOW_START_SKIPPED } from '../mutation/slow-start.ts';
import type { Decision } from './reconciler.ts';

export type {
  ControllerPorts,
  ControllerHooks,
  HandlerOutput,
  InputEvent,
  Observation,
  ObservedKeys,
  ReconcileInput,
} from './controller-types.ts';

const NOT_SYNCED_RETRY_MS = 250;

/**
 * NOT_FAILURES are the reasons of results that lower expectations but report nothing (no event, no backoff step): a
 * slow-start member never attempted, a Create the writer refused as expired (both decided again by the next sync).
 */
const NOT_FAILURES: ReadonlySet<string> = new Set([SLOW_START_SKIPPED, CREATE_EXPIRED]);
/** TICK_TOPIC names a tick as the cause of a sync (no record caused it); `trace` shows it as such. */
export const TICK_TOPIC = '~tick';
/** ACTIVATED_TOPIC is the cause topic of the syncs a member enqueues as it becomes active (Controller.onActivated). */
export const ACTIVATED_TOPIC = '~activated';

/**
 * Controller runs a spec the way client-go controllers run: events update stores and enqueue keys; workers
 * take keys from a workqueue (never one key on two workers), reconcile them purely, record expectations
 * before publishing the mutations, and requeue rate-limited on error or after requeueAfter. A key whose
 * partition has not synced waits (WaitForCacheSync). Results of failed mutations lower
 * expectations (upstream: CreationObserved/DeletionObserved after a failed create/delete) and reach the
 * next reconcile as failures.
 */
export class Controller implements ControllerFeed {
  readonly #spec: ControllerHooks;
  readonly #ports: ControllerPorts;
  readonly #keys = new KeyStates();
  readonly #writes = new ReadYourWrites();
  readonly #gone = new GoneOnWrite();
  readonly #cuts = new Cuts();
  readonly #expectations: KeyExpectations;

  constructor(spec: ControllerHooks, ports: ControllerPorts) {
    this.#spec = spec;
    this.#ports = ports;
    this.#expectations = new KeyExpectations(spec.name, ports.expectations, spec.observedInStores);
  }

  /**
   * onWatermark feeds a partition's watermark: the watcher's watch of that kind had reached resourceVersion rv, so
   * the partition is read at rv even when no object of it changed (a key that wrote the first object of a partition
   * waits for its record, not for nothing).
   */
  onWatermark(topic: string, partition: number, rv: string): void {
    for (const key of this.#writes.readAt(kindOfTopic(topic).plural, partition, rv)) this.#ports.queue.add(key);
  }

  /**
   * onEvent feeds one watch record. Live records lower expectations at once, as upstream's handlers do; a restored
   * record's observation is left to the key's next sync (observedInStores), which also sees pods whose owner was
   * not in the store yet when they were restored, without a Redis call per restored record.
   */
  async onEvent(topic: string, event: InputEvent): Promise<void> {
    for (const key of this.#writes.readAt(kindOfTopic(topic).plural, event.cause.partition, event.resourceVersion))
      this.#ports.queue.add(key);
    await this.#handled(this.#spec.onEvent(topic, event), event);
  }

  /** #handled does what a handler's output asks for, the way a record of `at` (its cause, live or not, time) calls for. */
  async #handled(out: HandlerOutput, at: Pick<InputEvent, 'cause' | 'live' | 'observedAt'>): Promise<void> {
    if (at.live) {
      for (const o of out.observed ?? []) await this.#expectations.observe(o);
      for (const key of out.deleteExpectations ?? []) await this.#expectations.deleteUnlessFenced(key);
    }
    for (const key of out.enqueue) this.#enqueue(key, at.cause);
    if (at.live && at.observedAt !== undefined)
      for (const key of out.enqueueAtCut ?? []) this.#cuts.at(key, at.observedAt, this.#ports.now().getTime());
    for (const key of out.enqueueAtCut ?? []) this.#enqueue(key, at.cause);
    for (const { key, ms } of out.enqueueAfter ?? []) if (this.#owned(key)) this.#ports.queue.addAfter(key, ms);
  }

  /**
   * #goneOnWrite drops an object a write found gone (404) from the stores that still hold it, as the informer's
   * delete would (GoneOnWrite), and hands the delete to the handlers: the owner's key then syncs on a store without
   * it and forgets the object, where it would retry a write to it.
   */
  async #goneOnWrite(result: MutationResult, cause: MutationCause, live: boolean): Promise<void> {
    const gone = this.#gone.resulted(result);
    const out = gone && this.#spec.evict?.(gone);
    if (gone === undefined || out === undefined) return;
    this.#ports.log.warn('a write found its object gone, which the store still held: dropped from the store', {
      ...gone,
      mutationId: result.mutationId,
    });
    await this.#handled(out, { cause, live });
  }

  /**
   * onActivated enqueues what the global inputs' objects call for, as if each had just been added: a singleton member
   * that becomes active runs this once, since the records of its global inputs mostly arrived before it was (and
   * #enqueue drops keys of partitions not owned). Upstream's leader starts its informers then, and every object
   * comes to its handlers as an add. The activation's time is its cause.
   */
  onActivated(at: Date): void {
    const out = this.#spec.activated?.();
    for (const key of [...(out?.enqueue ?? []), ...(out?.enqueueAtCut ?? [])])
      this.#enqueue(key, { topic: ACTIVATED_TOPIC, partition: 0, offset: at.getTime() });
  }

  /**
   * tick enqueues keys for a periodic sync (upstream's wait.Until loops); the tick's time is its cause, so each
   * tick's mutations get ids of their own. It resolves once a worker took up each key (synced, deferred or not
   * owned here), so the next period can start from there, as wait.Until's sliding period starts after f returned.
   */
  tick(keys: readonly string[], at: Date): Promise<void> {
    const taken = keys
      .filter((key) => this.#owned(key))
      .map(
        (key) =>
          new Promise<void>((resolve) => {
            this.#keys.waitTick(key, resolve);
          }),
      );
    for (const key of keys) this.#enqueue(key, { topic: TICK_TOPIC, partition: 0, offset: at.getTime() });
    return Promise.all(taken).then(() => undefined);
  }

  /** releaseTicks lets go of every tick waiting for its keys (the queue is shutting down). */
  releaseTicks(): void {
    for (const key of this.#keys.tickKeys()) this.#keys.tookUp(key);
  }

  /**
   * onResult feeds one of this controller's results (of a key it owns: another part of the same controller answers
   * for the others). A create or delete that did not happen is no longer expected
   * (upstream: CreationObserved/DeletionObserved after a failed call), restored or live: lowering by key is
   * idempotent. A failure is reported by the key's next sync, at once (once the key's other results are in), live
   * ones only: a restarted member does not report its backlog again. That sync ends upstream's failed sync (its
   * error steps the backoff, once per failed attempt as AddRateLimited after a failed syncHandler), and the attempt
   * after it waits that backoff. A create skipped by its slow-start run is no failure of its own (the failed member
   * of the run reports it), as manageReplicas only lowers expectations for skippedPods. The failure is the key's
   * before its hold lifts: a sync let through by the result while the expectations call is awaited would otherwise
   * see no failure and write again at once, and a write failing every time would loop at the pipeline's pace
   * instead of backing off (issue 41). A live result that carries a report (what a DeleteNamespaceContent found) is
   * the key's latest, for its next sync to take.
   */
  async onResult(result: MutationResult, cause: MutationCause, live: boolean): Promise<void> {
    const key = result.reconcileKey;
    // A decoded null comes back absent (schemas/avro: null and absent are alike), hence the loose check.
    if (result.controller !== this.#spec.name || key == null || this.#spec.ownsKey?.(key) === false) return;
    await this.#goneOnWrite(result, cause, live);
    const failed = writeFailed(result);
    const reported = failed && live && !NOT_FAILURES.has(result.reason ?? '');
    if (reported) {
      this.#keys.failed(key, result);
      this.#keys.caused(key, cause);
    }
    if (live && result.contentReport != null) this.#keys.reported(key, result);
    if (result.outcome !== 'Applied') await this.#expectations.failed(key, result);
    const waits = this.#spec.waitsForOwnWrites !== false;
    const released = waits && this.#writes.resulted(key, result.mutationId, this.#written(result));
    // A report waits for the key's other writes to be answered (their last result enqueues it), so it is not held.
    if (released || (reported && !this.#writes.inFlight(key))) this.#ports.queue.add(key);
  }

  /** run starts the workers; each returns when the queue shuts down. */
  run(workers: number): Promise<void[]> {
    return Promise.all(Array.from({ length: workers }, () => this.#worker()));
  }

  async #worker(): Promise<void> {
    for (let key = await this.#ports.queue.get(); key !== undefined; key = await this.#ports.queue.get()) {
      try {
        const partition = this.#ports.partitionOf(key);
        if (!this.#ports.partitionOwned(partition)) this.#ports.queue.forget(key);
        else if (!this.#ports.partitionSynced(partition)) this.#ports.queue.addAfter(key, NOT_SYNCED_RETRY_MS);
        else await this.#atCut(key, partition);
      } catch (err) {
        this.#failed(key, err);
      } finally {
        this.#ports.queue.done(key);
        this.#keys.tookUp(key);
      }
    }
  }

  /**
   * #failed handles a sync that threw: retried with backoff; or, fenced (another member took the key's partition
   * while this one still held it: a zombie), dropped, as the partition's revocation will drop the rest.
   */
  #failed(key: string, err: unknown): void {
    if (err instanceof FencedError) {
      this.#ports.log.warn("another member took over the key's partition: its sync is dropped", { key, err });
      this.#ports.queue.forget(key);
      return;
    }
    this.#ports.log.error('sync failed', { key, err });
    this.#ports.queue.addRateLimited(key);
  }

  /** #atCut syncs a key whose cut is reached (or that has none), noting a fresh read; else it looks again soon. */
  async #atCut(key: string, partition: number): Promise<void> {
    const state = this.#cuts.state(key, this.#ports.partitionWatermark(partition), this.#ports.now().getTime());
    if (state === 'wait') return this.#ports.queue.addAfter(key, CUT_RETRY_MS);
    if (state === 'fresh') this.#keys.freshRead(key);
    await this.#sync(key);
  }

  /** #held: the key waits for its own writes (ReadYourWrites), and is looked at again later; warns of an overdue one. */
  #held(key: string): boolean {
    const now = this.#ports.now().getTime();
    const overdue = this.#writes.overdue(key, now);
    if (overdue) {
      const { ids, waitedMs } = overdue;
      this.#ports.log.warn("its writes' results never came: the key syncs on what its stores show", {
        key,
        mutationIds: ids,
        waitedMs,
      });
    }
    if (this.#writes.ready(key, now)) return false;
    this.#ports.log.debug('sync held until its own writes are read back', { key });
    this.#ports.queue.addAfter(key, this.#writes.retryInMs(key, now));
    return true;
  }

  async #sync(key: string): Promise<void> {
    if (this.#held(key)) return;
    const expectations = await this.#expectations.read(key);
    // Read after the last await: the stores the reconcile reads and the cause its mutation ids name are one moment.
    const { failures, report, cause, attempt, fresh } = this.#keys.startSync(key);
    const decision = this.#spec.reconcile(key, {
      expectations,
      failures,
      report,
      now: this.#ports.now(),
      cause,
      attempt,
      fresh,
    });
    if (decision.expectations) await this.#expectations.record(key, decision.expectations);
    this.#ports.log.debug('finished syncing', {
      key,
      mutations: decision.mutations.length,
      requeueAfterMs: decision.requeueAfterMs,
    });
    if (decision.warning !== undefined)
      this.#ports.log.warn('sync could not act on all of its input: not retried until it changes', {
        key,
        warning: decision.warning,
      });
    await this.#publish(key, decision.mutations, decision.expectations !== undefined);
    this.#requeue(key, decision, failures);
  }

  /**
   * #requeue plans the key's next sync: rate-limited after an error, at a fresh read's cut, after requeueAfter; and
   * forgets its backoff once it is quiet. failures are the write results this sync reported.
   */
  #requeue(key: string, decision: Decision, failures: readonly MutationResult[]): void {
    if (decision.freshRead) this.#cuts.fresh(key, this.#ports.now().getTime());
    if (decision.error) {
      this.#retryOrDrop(
        key,
        decision.error,
        failures.map((f) => f.mutationId),
      );
    } else if (decision.freshRead) {
      this.#ports.queue.add(key);
    } else if (decision.mutations.length === 0 && failures.length === 0) {
      // The backoff is forgotten only once the key is quiet: a sync that publishes writes has not succeeded yet
      // (their results come later), so a create failing every time keeps backing off as upstream's would.
      this.#ports.queue.forget(key);
    }
    if (decision.requeueAfterMs !== undefined) this.#ports.queue.addAfter(key, decision.requeueAfterMs);
  }

  /**
   * #retryOrDrop requeues a failed key rate-limited, or drops it once it failed maxRetries retries (handleErr). The
   * log names the failed writes' mutation ids, so `kcm-bus trace` leads from the line to their causes.
   */
  #retryOrDrop(key: string, error: string, mutationIds: readonly string[]): void {
    const ids = mutationIds.length > 0 ? { mutationIds } : {};
    if (this.#spec.maxRetries !== undefined && this.#ports.queue.numRequeues(key) >= this.#spec.maxRetries) {
      this.#ports.log.warn('dropping the key out of the queue', { key, error, retries: this.#spec.maxRetries, ...ids });
      this.#ports.queue.forget(key);
      return;
    }
    this.#ports.log.warn('sync error; requeued with backoff', { key, error, ...ids });
    this.#ports.queue.addRateLimited(key);
  }

  /**
   * #publish sends the sync's mutations; the key waits for the results of its writes (ReadYourWrites). A publish that
   * fails (the producer retries what is retriable, so this is a refused request: nothing of it was written) voids the
   * expectations the sync just set, as upstream lowers them for creates that failed; else the key would wait out the TTL.
   */
  async #publish(key: string, mutations: readonly Mutation[], expected: boolean): Promise<void> {
    const writes = mutations.filter((m) => m.verb !== 'RecordEvent').map((m) => m.id);
    if (this.#spec.waitsForOwnWrites !== false) this.#writes.published(key, writes, this.#ports.now().getTime());
    this.#gone.published(key, mutations);
    try {
      await this.#ports.publish(mutations);
    } catch (err) {
      this.#writes.unpublished(key, writes);
      this.#gone.unpublished(mutations);
      if (expected) await this.#expectations.delete(key);
      throw err;
    }
  }

  /** #enqueue adds a key of an owned partition (a global input's event may name keys other members own). */
  #enqueue(key: string, cause: MutationCause): void {
    if (!this.#owned(key)) return;
    this.#keys.caused(key, cause);
    this.#ports.queue.add(key);
  }

  /**
   * #written is the kind (by plural, whichever of its topics the controller reads), the partition its object's
   * records are on and the version a result's write left the object at (undefined: nothing to read back).
   */
  #written(result: MutationResult): Written | undefined {
    const rv = result.resourceVersion;
    if (rv == null || result.outcome !== 'Applied') return undefined;
    const partition = this.#ports.watchPartitionOf(
      objectKey({ namespace: result.target.namespace, name: result.target.name }),
    );
    return { topic: result.target.resource, partition, resourceVersion: rv };
  }

  #owned(key: string): boolean {
    return this.#ports.partitionOwned(this.#ports.partitionOf(key));
  }

  /** dropWhere drops the state of keys whose partitions this member lost. */
  dropWhere(pred: (key: string) => boolean): void {
    this.#keys.dropWhere(pred);
    this.#cuts.dropWhere(pred);
    this.#writes.dropWhere(pred);
    this.#gone.dropWhere(pred);
    this.#ports.queue.dropWhere(pred);
    this.#ports.queue.forgetWhere(pred);
  }
}
