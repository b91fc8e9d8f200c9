import { MemoryExpectations } from '../expectations/expectations.memory.ts';
import type { ExpectationsStore } from '../expectations/expectations.ts';
import type { ExpectationChange, ExpectationsView } from '../controller/reconciler.ts';
import type { Clock } from '../workqueue/clock.ts';

/**
 * ReplayExpectations are a replayed controller's expectations. The replay publishes nothing, so the objects it
 * expects to create appear under the names it gave them only when it decided as the deployed controller did (the same
 * mutation ids): otherwise the history shows the deployed controller's objects instead. An observed creation therefore
 * lowers the named expectation when it is pending and otherwise any one pending creation, which is upstream's own
 * counting (CreationObserved lowers `add` by one, whatever the name).
 * Deletions stay by name: a replay that deletes the pods the deployed controller deleted sees them go.
 */
export class ReplayExpectations implements ExpectationsStore {
  readonly #store: MemoryExpectations;

  constructor(options: { readonly clock: Clock; readonly ttlMs: number }) {
    this.#store = new MemoryExpectations(options);
  }

  /** view reads the key's record at the replay's clock. */
  view(key: string): Promise<ExpectationsView> {
    return this.#store.view(key);
  }

  /** set replaces the key's record. */
  set(key: string, change: ExpectationChange): Promise<void> {
    return this.#store.set(key, change);
  }

  /** lower lowers deletions by name and creations by name or, failing that, by count. */
  async lower(key: string, creates: readonly string[], deletes: readonly string[]): Promise<void> {
    const { pendingCreates } = await this.#store.view(key);
    const unnamed = pendingCreates.filter((p) => !creates.includes(p));
    const lowered = creates
      .map((c) => (pendingCreates.includes(c) ? c : unnamed.shift()))
      .filter((c) => c !== undefined);
    await this.#store.lower(key, lowered, deletes);
  }

  /** delete forgets the key's record. */
  delete(key: string): Promise<void> {
    return this.#store.delete(key);
  }
}
