import type { ExpectationChange, ExpectationsView } from '../controller/reconciler.ts';
import type { Clock } from '../workqueue/clock.ts';
import {
  type ControlleeExpectations,
  type ExpectationsStore,
  expectationsView,
  lowerExpectations,
  recordFor,
} from './expectations.ts';

/**
 * MemoryExpectations is an ExpectationsStore in this process's memory, for unit tests only: it does not outlive a
 * crash or a rebalance, which is why services use the Redis one. The clock (ms) decides expiry.
 */
export class MemoryExpectations implements ExpectationsStore {
  readonly #records = new Map<string, ControlleeExpectations>();
  readonly #clock: Clock;
  readonly #ttlMs: number;

  constructor(options: { readonly clock: Clock; readonly ttlMs: number }) {
    this.#clock = options.clock;
    this.#ttlMs = options.ttlMs;
  }

  /** view reads the key's record as of the clock's now. */
  view(key: string): Promise<ExpectationsView> {
    return Promise.resolve(expectationsView(this.#records.get(key), this.#clock.now(), this.#ttlMs));
  }

  /** set replaces (or deletes) the key's record, stamped with the clock's now. */
  set(key: string, change: ExpectationChange): Promise<void> {
    const record = recordFor(change, this.#clock.now());
    if (record) this.#records.set(key, record);
    else this.#records.delete(key);
    return Promise.resolve();
  }

  /** lower stops expecting the given keys, if the key has a record. */
  lower(key: string, creates: readonly string[], deletes: readonly string[]): Promise<void> {
    const record = this.#records.get(key);
    if (record) this.#records.set(key, lowerExpectations(record, creates, deletes));
    return Promise.resolve();
  }

  /** delete forgets the key's record. */
  delete(key: string): Promise<void> {
    this.#records.delete(key);
    return Promise.resolve();
  }
}
