import type { InflightRecord, InflightScheduler } from './inflight.ts';

/**
 * Executor runs consumed records through the InflightScheduler: every record that may run now is started,
 * and each completion starts what it unblocked. run resolves when all of the given records are done (their
 * results published), which is when their batch's offsets may be committed; a handler failure (a result
 * that could not be published) rejects it, so nothing past that record is committed.
 */
export class Executor<T extends InflightRecord> {
  readonly #scheduler: InflightScheduler<T>;
  readonly #handle: (record: T) => Promise<void>;
  readonly #waiters = new Map<T, { resolve: () => void; reject: (err: unknown) => void }>();
  readonly #running = new Set<Promise<void>>();
  #closed = false;

  constructor(scheduler: InflightScheduler<T>, handle: (record: T) => Promise<void>) {
    this.#scheduler = scheduler;
    this.#handle = handle;
  }

  /** run schedules records and resolves when every one of them is done. */
  run(records: readonly T[]): Promise<void> {
    const done = records.map((record) => new Promise<void>((resolve, reject) => this.#waiters.set(record, { resolve, reject })));
    for (const record of records) this.#scheduler.add(record);
    this.#pump();
    return Promise.all(done).then(() => undefined);
  }

  /**
   * close starts nothing more and resolves once the records in flight are done; the records still queued
   * fail their run() (they stay uncommitted, and whoever owns the partition next applies them).
   */
  async close(): Promise<void> {
    this.#closed = true;
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
    for (const [record, waiter] of this.#waiters) {
      waiter.reject(new Error('the writer is stopping'));
      this.#waiters.delete(record);
    }
  }

  #pump(): void {
    if (this.#closed) return;
    for (const record of this.#scheduler.take()) {
      const running: Promise<void> = this.#handle(record).then(() => {
        this.#scheduler.done(record);
        this.#waiters.get(record)?.resolve();
      }, (err: unknown) => this.#waiters.get(record)?.reject(err)).finally(() => {
        this.#waiters.delete(record);
        this.#running.delete(running);
        this.#pump();
      });
      this.#running.add(running);
    }
  }
}
