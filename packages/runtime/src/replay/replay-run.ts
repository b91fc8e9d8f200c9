import type { Mutation, MutationCause } from '../mutation/mutation.ts';
import type { ControllerHooks, HandlerOutput, InputEvent } from '../reconcile/controller-types.ts';
import { KeyExpectations } from '../reconcile/key-expectations.ts';
import { HELD_RETRY_MS } from '../reconcile/read-your-writes.ts';
import type { ReconcileResult } from '../reconcile/reconciler.ts';
import { DEFAULT_BASE_DELAY_MS, DEFAULT_MAX_DELAY_MS, ItemExponentialFailureRateLimiter } from '../workqueue/rate-limiter.ts';
import { ReplayCuts } from './replay-cuts.ts';
import { ReplayExpectations } from './replay-expectations.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';

/** ReplayInput is one history record in the replay's time order: an object event of a declared input, or a watermark. */
export type ReplayInput = { readonly at: number; readonly topic: string; readonly partition: number } & (
  | { readonly kind: 'event'; readonly event: InputEvent }
  | { readonly kind: 'watermark'; readonly observedAt: Date });

/** Decision is what one sync of one key decided, at its time (ms): the mutations it would publish (none: a no-op sync). */
export type Decision = { readonly at: number; readonly key: string; readonly mutations: readonly Mutation[] };

/** ReplayRunOptions: the window's start, the expectations' TTL, the tick, the partitions of each input topic. */
export type ReplayRunOptions = {
  readonly from: number;
  readonly ttlMs: number;
  readonly keepsExpectations: boolean;
  readonly partitions: ReadonlyMap<string, number>;
  readonly tick?: { readonly keys: readonly string[]; readonly periodMs: number } | undefined;
};

/**
 * BATCH_MS is how long a key waits after its event (or its cut) before the replay syncs it: the records of one consumed batch
 * land in the stores before a worker takes the key up, so a burst is one sync, as in the running controller.
 */
export const BATCH_MS = 10;

/**
 * ReplayRun runs a controller's pure part over history in the history's own time: records are applied to its stores
 * in order; from the window's start each event's keys sync (after BATCH_MS, requeueAfter, a fresh read at once, an
 * error with the workqueue's per-item backoff), with expectations of its own (ReplayExpectations) and every write
 * taken as done: nothing is published, the world goes on as the history says. A key enqueued at a cut waits for the
 * history's watermarks to pass it (ReplayCuts), as the runtime's Cuts. As the runtime's ReadYourWrites, a key
 * that wrote named objects syncs again only once the history shows a record of one of them (the deployed
 * controller's same write) or HELD_RETRY_MS passed. Mirrors Controller's sync loop on a clock that is the history's.
 */
export class ReplayRun {
  readonly #hooks: ControllerHooks;
  readonly #opts: ReplayRunOptions;
  readonly #expectations: KeyExpectations;
  readonly #due = new Map<string, number>();
  readonly #causes = new Map<string, { readonly cause: MutationCause[]; attempt: number }>();
  readonly #backoff = new ItemExponentialFailureRateLimiter<string>(DEFAULT_BASE_DELAY_MS, DEFAULT_MAX_DELAY_MS);
  readonly #watermarks = new Map<string, Map<number, Date>>();
  readonly #decisions: Decision[] = [];
  readonly #held = new Map<string, { readonly until: number; readonly targets: ReadonlySet<string> }>();
  readonly #cuts: ReplayCuts;
  #now = 0;
  #nextTick: number;

  constructor(hooks: ControllerHooks, opts: ReplayRunOptions) {
    this.#hooks = hooks;
    this.#opts = opts;
    const store = opts.keepsExpectations ? new ReplayExpectations({ clock: { now: () => this.#now }, ttlMs: opts.ttlMs }) : undefined;
    this.#expectations = new KeyExpectations(hooks.name, store, hooks.observedInStores);
    this.#nextTick = opts.tick ? opts.from : Infinity;
    this.#cuts = new ReplayCuts(opts.partitions, (topic, partition) => this.#watermarks.get(topic)?.get(partition));
  }

  /** observedAt is the time up to which every partition of the topic is known complete (its oldest newest watermark). */
  observedAt(topic: string): Date | undefined {
    const marks = [...this.#watermarks.get(topic)?.values() ?? []];
    if (marks.length < (this.#opts.partitions.get(topic) ?? 1)) return undefined;
    return new Date(Math.min(...marks.map((d) => d.getTime())));
  }

  /** feed runs the syncs due before the record, then applies it; from the window's start its keys are enqueued. */
  async feed(input: ReplayInput): Promise<void> {
    await this.#runDue(input.at);
    this.#now = Math.max(this.#now, input.at);
    if (input.kind === 'watermark') this.#watermark(input.topic, input.partition, input.observedAt);
    else await this.#event(input);
    for (const { key, cause } of this.#cuts.reached(this.#now)) this.#enqueue(key, BATCH_MS, cause);
  }

  async #event(input: Extract<ReplayInput, { kind: 'event' }>): Promise<void> {
    this.#release(input.event.key);
    const out = this.#hooks.onEvent(input.topic, input.event);
    if (input.at < this.#opts.from) return;
    await this.#handle(out, input.event.cause);
    const seen = input.event.observedAt?.getTime() ?? input.at;
    for (const key of out.enqueueAtCut ?? []) this.#cuts.wait(key, input.partition, seen, this.#now, input.event.cause);
  }

  /** finish runs what is due up to the window's end and returns every decision, in time order. */
  async finish(to: number): Promise<readonly Decision[]> {
    for (const { key, cause } of this.#cuts.reached(Infinity)) this.#enqueue(key, BATCH_MS, cause);
    await this.#runDue(to + 1);
    return this.#decisions;
  }

  #watermark(topic: string, partition: number, observedAt: Date): void {
    const marks = this.#watermarks.get(topic) ?? new Map<number, Date>();
    marks.set(partition, observedAt);
    this.#watermarks.set(topic, marks);
  }

  async #handle(out: HandlerOutput, cause: MutationCause): Promise<void> {
    for (const o of out.observed ?? []) await this.#expectations.observe(o);
    for (const key of out.deleteExpectations ?? []) await this.#expectations.delete(key);
    for (const key of out.enqueue) this.#enqueue(key, BATCH_MS, cause);
    for (const { key, ms } of out.enqueueAfter ?? []) this.#enqueue(key, ms);
  }

  #enqueue(key: string, afterMs: number, cause?: MutationCause): void {
    const at = this.#now + afterMs;
    this.#due.set(key, Math.min(this.#due.get(key) ?? Infinity, at));
    if (cause) this.#causes.set(key, { cause: [cause], attempt: 0 });
  }

  async #runDue(until: number): Promise<void> {
    for (let next = this.#earliest(); next !== undefined && next.at < until; next = this.#earliest()) {
      this.#now = Math.max(this.#now, next.at);
      if (next.key === undefined) this.#tick();
      else {
        this.#due.delete(next.key);
        await this.#sync(next.key);
      }
    }
  }

  #earliest(): { readonly at: number; readonly key?: string } | undefined {
    let best: { at: number; key?: string } | undefined = this.#nextTick < Infinity ? { at: this.#nextTick } : undefined;
    for (const [key, at] of this.#due) if (best === undefined || at < best.at) best = { at, key };
    return best;
  }

  #tick(): void {
    for (const key of this.#opts.tick?.keys ?? []) this.#enqueue(key, 0);
    this.#nextTick += this.#opts.tick?.periodMs ?? Infinity;
  }

  /** #release lets every key held for a write of this object sync (at once if it was due meanwhile). */
  #release(objectKey: string): void {
    for (const [key, { targets }] of this.#held) {
      if (!targets.has(objectKey)) continue;
      this.#held.delete(key);
      if (this.#due.has(key)) this.#due.set(key, this.#now + BATCH_MS);
    }
  }

  /** #hold keeps a key that wrote named objects from syncing until one of them shows in the history (or HELD_RETRY_MS). */
  #hold(key: string, mutations: readonly Mutation[]): void {
    const targets = new Set(mutations.filter((m) => m.verb !== 'RecordEvent' && m.target.name !== '').map((m) => objectKey(m.target)));
    if (targets.size > 0) this.#held.set(key, { until: this.#now + HELD_RETRY_MS, targets });
  }

  async #sync(key: string): Promise<void> {
    const held = this.#held.get(key);
    if (held !== undefined && this.#now < held.until) return void this.#due.set(key, held.until);
    this.#held.delete(key);
    const expectations = await this.#expectations.read(key);
    const { cause, attempt } = this.#causes.get(key) ?? { cause: [], attempt: 0 };
    this.#causes.set(key, { cause, attempt: attempt + 1 });
    const result = this.#hooks.reconcile(key, { expectations, failures: [], now: new Date(this.#now), cause, attempt, fresh: true });
    if (result.expectations) await this.#expectations.record(key, result.expectations);
    this.#decisions.push({ at: this.#now, key, mutations: result.mutations });
    this.#hold(key, result.mutations);
    this.#requeue(key, result);
  }

  /** #requeue mirrors Controller's: backoff after an error, at once for a fresh read (the replay's stores are), requeueAfter. */
  #requeue(key: string, result: ReconcileResult): void {
    if (result.error) this.#enqueue(key, this.#backoff.when(key));
    else if (result.freshRead) this.#enqueue(key, 0);
    else this.#backoff.forget(key);
    if (result.requeueAfterMs !== undefined) this.#enqueue(key, result.requeueAfterMs);
  }
}
