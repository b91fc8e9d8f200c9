import type { Lister } from '../controller/reconciler.ts';
import { type Indexers, Indices } from './indices.ts';

/**
 * WatchEvent is what a store is fed from a kcm.watch.<plural> topic: the object under key was Applied (added or
 * changed; object is its new state) or Deleted (object, when present, is its last state; a tombstone has none).
 */
export type WatchEvent<T> =
  | { readonly type: 'Applied'; readonly key: string; readonly object: T }
  | { readonly type: 'Deleted'; readonly key: string; readonly object?: T };

/**
 * Store is one kind's objects by key, changed only by applying watch events, with named indices kept up to date
 * on every change (client-go's Indexer over a threadSafeMap, fed by events instead of a Reflector). Pure code
 * gets its read-only half, lister(); only the consumer that owns the input topic calls apply.
 */
export class Store<T> {
  readonly #items = new Map<string, T>();
  readonly #indices: Indices<T>;
  readonly #lister: Lister<T>;

  constructor(indexers: Indexers<T> = {}) {
    this.#indices = new Indices(indexers);
    this.#lister = {
      get: (key) => this.#items.get(key),
      list: () => [...this.#items.values()],
      byIndex: (index, value) => Array.from(this.#indices.keys(index, value), (key) => this.#items.get(key)!),
    };
  }

  /**
   * apply records an event and returns the object's previous state (undefined if the key was unknown), which
   * event handlers need to enqueue both an old and a new owner. Deleting an unknown key is a no-op.
   * Mirrors threadSafeMap.Update / Delete.
   */
  apply(event: WatchEvent<T>): T | undefined {
    const old = this.#items.get(event.key);
    if (event.type === 'Applied') {
      this.#items.set(event.key, event.object);
      this.#indices.update(event.key, old, event.object);
    } else if (old !== undefined) {
      this.#items.delete(event.key);
      this.#indices.update(event.key, old, undefined);
    }
    return old;
  }

  /** lister is the read-only view of this store that reconcile code receives; it sees every later apply. */
  lister(): Lister<T> {
    return this.#lister;
  }

  /** indexValues lists the values that currently have objects in the named index. Mirrors ListIndexFuncValues. */
  indexValues(index: string): readonly string[] {
    return this.#indices.values(index);
  }

  /**
   * dropWhere forgets every object the predicate matches (e.g. those of a partition this member no longer owns)
   * and returns how many it dropped. It emits nothing: a revoked partition's keys are someone else's now.
   */
  dropWhere(pred: (key: string, object: T) => boolean): number {
    let dropped = 0;
    for (const [key, object] of this.#items) {
      if (!pred(key, object)) continue;
      this.#items.delete(key);
      this.#indices.update(key, object, undefined);
      dropped++;
    }
    return dropped;
  }

  /** entries are the store's keys and objects, as they are now. */
  entries(): IterableIterator<[string, T]> {
    return this.#items.entries();
  }

  /** size is how many objects the store holds. */
  get size(): number {
    return this.#items.size;
  }
}
