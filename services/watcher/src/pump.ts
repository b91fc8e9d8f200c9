import { setImmediate as afterTurn } from 'node:timers/promises';
import type { PublishedRecord } from './events.ts';

/** PumpItem is a record to publish, or progress that moves the reached resourceVersion without a record. */
export type PumpItem = PublishedRecord | { readonly type: 'Progress'; readonly resourceVersion: string };

/**
 * Push is what one push brought, published whole; atomic: in one transaction (a relist); done: told once it is
 * published (a batch of several pushes tells each of them).
 */
type Push = { readonly items: readonly PumpItem[]; readonly atomic: boolean; readonly done: (() => void)[] };

/**
 * PumpOptions bound one publication (one produce request, or a transaction for a relist) and the queue before
 * producers must wait. gapMs (default 0) is the least time between the end of one publication and the start of the
 * next: what arrives meanwhile joins the next one. Up to maxGapMs (default gapMs), the wait grows by 1 ms for each
 * record the last publication carried beyond gapMs's worth: a burst's publications gather more records and are
 * fewer, while a lone change after a quiet spell, or one that follows a small publication, waits no longer than gapMs.
 */
export type PumpOptions = {
  readonly maxBatch: number;
  readonly highWater: number;
  readonly gapMs?: number;
  readonly maxGapMs?: number;
};

/**
 * PumpFailures say what a failed publication means. final tells a failure no retry can mend (the publisher was
 * fenced by a newer watcher): it stops the pump and goes to onFatal, and the watcher exits. Any other failure (the
 * broker unreachable, restarting, timing out) is retried, the same batch whole, after backoff.next() ms, told to
 * onRetry with the count of failed attempts so far; the next success resets the backoff and tells onRecovered.
 * A publication still in flight after stallMs (by now(), in ms) counts as stalled too: the client may be retrying
 * inside it for a long while before it fails.
 */
export type PumpFailures = {
  readonly final: (err: unknown) => boolean;
  readonly onFatal: (err: unknown) => void;
  readonly onRetry: (err: unknown, attempt: number, delayMs: number) => void;
  readonly onRecovered: (attempts: number) => void;
  readonly backoff: { next(): number; reset(): void };
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly now: () => number;
  readonly stallMs: number;
};

/**
 * Pump publishes queued records in order, one batch at a time: records that arrive while a batch is in flight form
 * the next one, so an idle stream publishes each event at the end of the turn that read it (with what else that turn
 * read) and a busy one in large batches. What one push
 * brings is published whole; an atomic push (a relist) alone, in one transaction however large: its Applied
 * records, its synthetic deletes and its resourceVersion land together or not at all, so a crash can never leave
 * the topic at a resume point past deletes or changes it did not get. push waits while the queue is above
 * the high-water mark (backpressure on the watch stream). A failed publication is retried until it succeeds
 * (stalled meanwhile: the watcher is not ready) unless it is final (see PumpFailures).
 */
export class Pump {
  readonly #publish: (records: readonly PublishedRecord[], atomic: boolean) => Promise<void>;
  readonly #opts: PumpOptions;
  readonly #failures: PumpFailures;
  /** #queue holds the pushes not yet published, each one whole. */
  readonly #queue: Push[] = [];
  #queued = 0;
  readonly #drained: (() => void)[] = [];
  #running: Promise<void> = Promise.resolve();
  #draining = false;
  #reached: string | undefined;
  #latest: string | undefined;
  #failed = false;
  #stalled = false;
  #inFlightSince: number | undefined;
  #publishedAt = -Infinity;
  /** #lastRecords: how many records the last publication carried (the gap after it grows with them). */
  #lastRecords = 0;
  readonly #closing = new AbortController();

  constructor(
    publish: (records: readonly PublishedRecord[], atomic: boolean) => Promise<void>,
    opts: PumpOptions,
    failures: PumpFailures,
    reached?: string,
  ) {
    this.#publish = publish;
    this.#opts = opts;
    this.#failures = failures;
    this.#reached = reached;
    this.#latest = reached;
  }

  /** reached is the resourceVersion of the last item published (records and progress alike), at first the one
   * the topic already held. */
  get reached(): string | undefined {
    return this.#reached;
  }

  /**
   * latest is the resourceVersion of the last item queued, published or not (at first the one the topic already held):
   * where the watch is, and so the one a watermark queued now carries, since it is published after all of them.
   */
  get latest(): string | undefined {
    return this.#latest;
  }

  /** depth is the number of queued items. */
  get depth(): number {
    return this.#queued;
  }

  /**
   * push queues items and starts publishing; it resolves once the queue is below the high-water mark. Atomic items
   * (a relist's) are published alone, in one transaction.
   */
  push(items: readonly PumpItem[], atomic = false): Promise<void> {
    return this.#enqueue({ items, atomic, done: [] });
  }

  /** published pushes items and resolves once they are published, not merely queued (never, if the pump stops first). */
  async published(items: readonly PumpItem[]): Promise<void> {
    const { promise, resolve } = Promise.withResolvers<void>();
    await this.#enqueue({ items, atomic: false, done: [resolve] });
    await promise;
  }

  async #enqueue(push: Push): Promise<void> {
    const { items } = push;
    if (this.#failed) throw new Error('the pump has stopped after a failed publication');
    if (items.length === 0) return push.done.forEach((told) => told());
    this.#queue.push(push);
    this.#queued += items.length;
    this.#latest = items.at(-1)!.resourceVersion;
    // #draining is cleared by the drain itself in the same turn it sees the queue empty, so a push right after
    // always finds either a drain that will take its items or none (then it starts one): nothing waits in the queue.
    if (!this.#draining) {
      this.#draining = true;
      this.#running = this.#drain();
    }
    if (this.#queued > this.#opts.highWater) await new Promise<void>((resolve) => this.#drained.push(resolve));
  }

  /** stalled is true from a failed publication until the next one that succeeds, or while one is in flight too long. */
  get stalled(): boolean {
    return (
      this.#stalled ||
      (this.#inFlightSince !== undefined && this.#failures.now() - this.#inFlightSince > this.#failures.stallMs)
    );
  }

  /** flush resolves when everything queued so far is published. */
  async flush(): Promise<void> {
    while (this.#draining) await this.#running;
  }

  /**
   * close publishes what is queued, as flush, but gives up at the first failure: at shutdown nothing waits for a
   * broker to come back (what was not published is read again from the API after the restart).
   */
  async close(): Promise<void> {
    this.#closing.abort();
    await this.flush();
  }

  /** #nextBatch takes whole pushes up to maxBatch items (at least one push, however large); an atomic push goes alone. */
  #nextBatch(): Push {
    const first = this.#queue.shift()!;
    const [batch, done] = [[...first.items], [...first.done]];
    const joins = (next: Push | undefined): next is Push =>
      next !== undefined && !next.atomic && batch.length + next.items.length <= this.#opts.maxBatch;
    while (!first.atomic && joins(this.#queue[0])) {
      const next = this.#queue.shift()!;
      batch.push(...next.items);
      done.push(...next.done);
    }
    this.#queued -= batch.length;
    return { items: batch, atomic: first.atomic, done };
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0 && !this.#failed) {
        await this.#waitGap();
        const batch = this.#nextBatch();
        const records = batch.items.filter((i): i is PublishedRecord => i.type !== 'Progress');
        if (records.length > 0 && !(await this.#publishRetrying(records, batch.atomic))) return;
        this.#reached = batch.items.at(-1)?.resourceVersion ?? this.#reached;
        batch.done.forEach((told) => told());
        if (this.#queued <= this.#opts.highWater) this.#drained.splice(0).forEach((resolve) => resolve());
      }
    } finally {
      this.#draining = false;
    }
  }

  /**
   * #waitGap waits out what is left of the gap since the last publication ended (PumpOptions), and at least the rest
   * of the event loop's turn: what the watch streams brought in one turn is queued by then and goes out together.
   * After a stall of the event loop (SIGSTOP, a long pause) the streams' backlog is read in one turn, one push per
   * event, each a few promise hops after the last: a batch taken at the first push carried that event alone, and its
   * time told consumers the kind was complete up to then while the rest waited for the next publication (a Lease's
   * linger, 200 ms): node lifecycle took the other nodes' renewals, read in the same turn, for 14 s of silence.
   */
  async #waitGap(): Promise<void> {
    const min = this.#opts.gapMs ?? 0;
    const gap = Math.min(Math.max(min, this.#lastRecords), Math.max(min, this.#opts.maxGapMs ?? min));
    const wait = this.#publishedAt + gap - this.#failures.now();
    if (wait > 0 && !this.#closing.signal.aborted) await this.#failures.sleep(wait, this.#closing.signal);
    await afterTurn();
  }

  /** #publishRetrying publishes one batch until it succeeds (true), fails finally, or the pump closes (false). */
  async #publishRetrying(records: readonly PublishedRecord[], atomic: boolean): Promise<boolean> {
    for (let failures = 0; ; failures++) {
      try {
        this.#inFlightSince = this.#failures.now();
        await this.#publish(records, atomic);
        this.#inFlightSince = undefined;
        this.#publishedAt = this.#failures.now();
        this.#lastRecords = records.length;
        if (this.#stalled) this.#recovered(failures);
        return true;
      } catch (err) {
        this.#inFlightSince = undefined;
        if (this.#closing.signal.aborted) return this.#stop();
        if (this.#failures.final(err)) return this.#stop(err);
        this.#stalled = true;
        const delayMs = this.#failures.backoff.next();
        this.#failures.onRetry(err, failures + 1, delayMs);
        await this.#failures.sleep(delayMs, this.#closing.signal);
      }
    }
  }

  #recovered(attempts: number): void {
    this.#stalled = false;
    this.#failures.backoff.reset();
    this.#failures.onRecovered(attempts);
  }

  /** #stop ends the pump: at close quietly, else with the final error. */
  #stop(...err: [unknown?]): false {
    this.#failed = true;
    this.#drained.splice(0).forEach((resolve) => resolve());
    if (err.length > 0) this.#failures.onFatal(err[0]);
    return false;
  }
}
