import { type ExpectationsStore, FencedError } from '../expectations/expectations.ts';
import type { MutationResult } from '../mutation/mutation-result.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import type { Observation, ObservedKeys } from './controller-types.ts';
import type { ExpectationChange, ExpectationsView } from './reconciler.ts';

const SATISFIED: ExpectationsView = { satisfied: true, pendingCreates: [], pendingDeletes: [] };

/**
 * KeyExpectations is what the Controller does with a controller's expectations (upstream's ControllerExpectations
 * calls in the handlers and the sync), or nothing for a controller that keeps none: every sync then reads them
 * satisfied, and a reconcile that sets some fails loudly instead of pretending.
 */
export class KeyExpectations {
  readonly #store: ExpectationsStore | undefined;
  readonly #controller: string;
  readonly #observedInStores: ((key: string, pending: ExpectationsView) => ObservedKeys) | undefined;

  constructor(
    controller: string,
    store: ExpectationsStore | undefined,
    observedInStores: ((key: string, pending: ExpectationsView) => ObservedKeys) | undefined,
  ) {
    this.#controller = controller;
    this.#store = store;
    this.#observedInStores = observedInStores;
  }

  /** read is the key's expectations after lowering what its stores already show done (restored observations). */
  async read(key: string): Promise<ExpectationsView> {
    if (!this.#store) return SATISFIED;
    const view = await this.#store.view(key);
    if (view.satisfied || !this.#observedInStores) return view;
    const seen = this.#observedInStores(key, view);
    if (seen.creates.length + seen.deletes.length === 0) return view;
    await this.#store.lower(key, seen.creates, seen.deletes);
    return this.#store.view(key);
  }

  /** record sets or deletes the key's expectations before its mutations are published. */
  async record(key: string, change: ExpectationChange): Promise<void> {
    if (!this.#store)
      throw new Error(`${this.#controller} keeps no expectations, yet its reconcile of ${key} set some`);
    if (change.type === 'DeleteExpectations') await this.#store.delete(key);
    else await this.#store.set(key, change);
  }

  /** observe lowers what a live event saw created or deleted (CreationObserved / DeletionObserved). */
  async observe(o: Observation): Promise<void> {
    if (o.kind === 'creation') await this.#store?.lower(o.key, [o.objectKey], []);
    else await this.#store?.lower(o.key, [], [o.objectKey]);
  }

  /** failed lowers a create or delete that did not happen; a create that met AlreadyExists stays expected until seen. */
  async failed(key: string, result: MutationResult): Promise<void> {
    const target = objectKey({ namespace: result.target.namespace, name: result.name ?? result.target.name });
    if (result.verb === 'Create' && result.outcome !== 'AlreadyDone') await this.#store?.lower(key, [target], []);
    if (result.verb === 'Delete') await this.#store?.lower(key, [], [target]);
  }

  /** delete voids the key's record (DeleteExpectations: the owner is gone or recreated, or nothing was published). */
  async delete(key: string): Promise<void> {
    await this.#store?.delete(key);
  }

  /**
   * deleteUnlessFenced is delete for a live event that saw the owner go: refused when another member has taken the key's
   * partition since (FencedError), which is then that member's to do as it reads the same event.
   */
  async deleteUnlessFenced(key: string): Promise<void> {
    try {
      await this.delete(key);
    } catch (err) {
      if (!(err instanceof FencedError)) throw err;
    }
  }
}
