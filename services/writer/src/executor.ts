import type { InflightRecord, InflightScheduler } from './inflight.ts';

/**
 * AbandonedError fails the run of records the writer gave up on without a result, because it is stopping or their
 * partition was revoked: they stay uncommitted, and whoever owns their partition next applies them.
 */
export class AbandonedError extends Error {}

type Waiter = { readonly resolve: () => void; readonly reject: (err: unknown) => void };

/**
 * Executor runs consumed records through the InflightScheduler: every record that may run now is started,
 * and each completion starts what it unblocked. run resolves when all of the given records are done (their
 * results published), which is when their batch's offsets may be committed; a handler failure (a result
 * that could not be published, or an abandoned record) rejects it, so nothing past that record is committed.
 */
export class Executor<T extends InflightRecord> {
  readonly #scheduler: InflightScheduler<T>;
  readonly #handle: (record: T) => Promise<void>;
  readonly #waiters = new Map<T, Waiter>();
  readonly #running = new Set<Promise<void>>();
  readonly #onDone: (record: T) => void;
  readonly #roomWaiters: { readonly below: number; readonly resolve: () => void }[] = [];
  #closed = false;

  /** onDone is told of every record whose handling finished (its result published), e.g. to commit. */
  constructor(scheduler: InflightScheduler<T>, handle: (record: T) => Promise<void>, onDone?: (record: T) => void) {
    this.#scheduler = scheduler;
    this.#handle = handle;
    this.#onDone = onDone ?? (() => undefined);
  }

  /**
   * room resolves once fewer than `below` records are pending (run and not finished): the backpressure of a caller
   * that does not wait for its runs, so that what it has consumed ahead stays bounded.
   */
  room(below: number): Promise<void> {
    if (this.#waiters.size < below || this.#closed) return Promise.resolve();
    return new Promise((resolve) => this.#roomWaiters.push({ below, resolve }));
  }

  /** run schedules records and resolves when every one of them is done; after close it rejects at once. */
  run(records: readonly T[]): Promise<void> {
    if (this.#closed) return Promise.reject(new AbandonedError('the writer is stopping'));
    const done = records.map(
      (record) => new Promise<void>((resolve, reject) => this.#waiters.set(record, { resolve, reject })),
    );
    // A record still outstanding from an earlier fetch is done when its first delivery is.
    for (const record of records) if (!this.#scheduler.add(record)) this.#finish(record);
    this.#pump();
    return Promise.all(done).then(() => undefined);
  }

  /** revoke drops the queued records of a partition lost in a rebalance: they are not applied, their runs fail. */
  revoke(partition: number): void {
    for (const record of this.#scheduler.revoke(partition))
      this.#finish(record, new AbandonedError(`partition ${partition} was revoked`));
  }

  /**
   * close starts nothing more and resolves once the records in flight are done; the records still queued
   * fail their run() (they stay uncommitted, and whoever owns the partition next applies them).
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#roomWaiters.splice(0).forEach((w) => w.resolve());
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
    for (const record of [...this.#waiters.keys()]) this.#finish(record, new AbandonedError('the writer is stopping'));
  }

  /** committable is the partition's next offset to commit: every record before it has its result published. */
  committable(partition: number): number | undefined {
    return this.#scheduler.committable(partition);
  }

  /** pendingIn counts a partition's records run and not yet done. */
  pendingIn(partition: number): number {
    return this.#scheduler.pending(partition);
  }

  /** pending counts records run and not yet finished (what the writer holds of its batches). */
  pending(): number {
    return this.#waiters.size;
  }

  #finish(record: T, err?: unknown): void {
    const waiter = this.#waiters.get(record);
    this.#waiters.delete(record);
    if (err === undefined) waiter?.resolve();
    else waiter?.reject(err);
    for (const w of this.#roomWaiters.filter((r) => this.#waiters.size < r.below || this.#closed)) {
      this.#roomWaiters.splice(this.#roomWaiters.indexOf(w), 1);
      w.resolve();
    }
  }

  #pump(): void {
    if (this.#closed) return;
    for (const record of this.#scheduler.take()) {
      const running: Promise<void> = this.#handle(record)
        .then(
          () => {
            this.#scheduler.done(record);
            this.#finish(record);
            this.#onDone(record);
          },
          (err: unknown) => {
            this.#scheduler.abandon(record);
            this.#finish(record, err);
          },
        )
        .finally(() => {
          this.#running.delete(running);
          this.#pump();
        });
      this.#running.add(running);
    }
  }
}
