import type { MutationResult } from '../mutation/mutation-result.ts';
import type { Mutation } from '../mutation/mutation.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';

/** GoneObject is an object the API said is gone: its kind (resource), key and uid. */
export type GoneObject = { readonly resource: string; readonly key: string; readonly uid: string };

/** WRITES_TO_EXISTING are the verbs that write an object that must exist, guarded by its uid. */
const WRITES_TO_EXISTING: ReadonlySet<Mutation['verb']> = new Set(['Update', 'UpdateStatus', 'Patch']);

type Written = GoneObject & { readonly reconcileKey: string };

/**
 * GoneOnWrite remembers, for each write in flight to an existing object, the uid it was guarded by, so that a 404
 * answer names a dead object: no object of that name exists, so the one of that uid never will again (uids are not
 * reused). A store still holding it is behind the API (the watch has not brought the delete yet) or diverged; either
 * way the informer's delete is due, as upstream's informer brings it and its controller then forgets the key,
 * instead of retrying a write to an object that is gone.
 */
export class GoneOnWrite {
  readonly #written = new Map<string, Written>();

  /** published notes the sync's writes to existing objects (by mutation id). */
  published(reconcileKey: string, mutations: readonly Mutation[]): void {
    for (const m of mutations) {
      const uid = m.preconditions.uid;
      if (!WRITES_TO_EXISTING.has(m.verb) || uid == null) continue;
      const key = objectKey({ namespace: m.target.namespace, name: m.target.name });
      this.#written.set(m.id, { resource: m.target.resource, key, uid, reconcileKey });
    }
  }

  /** unpublished forgets writes that were not sent after all (publishing failed). */
  unpublished(mutations: readonly Mutation[]): void {
    for (const m of mutations) this.#written.delete(m.id);
  }

  /** resulted forgets the write and tells the object it wrote, if the answer was 404: that object is gone. */
  resulted(result: MutationResult): GoneObject | undefined {
    const written = this.#written.get(result.mutationId);
    this.#written.delete(result.mutationId);
    if (written === undefined || result.outcome !== 'Failed' || result.status !== 404) return undefined;
    return { resource: written.resource, key: written.key, uid: written.uid };
  }

  /** dropWhere forgets the writes of the matching reconcile keys (their partition was revoked). */
  dropWhere(pred: (reconcileKey: string) => boolean): void {
    for (const [id, w] of this.#written) if (pred(w.reconcileKey)) this.#written.delete(id);
  }
}
