/**
 * LruCache is groupcache's lru.Cache as client-go's event correlator uses it: get marks an entry most recently
 * used, add inserts or replaces one and evicts the least recently used beyond maxEntries, so the correlator's
 * memory stays bounded however many objects events are about.
 */
export class LruCache<K, V> {
  readonly #maxEntries: number;
  readonly #entries = new Map<K, V>();

  constructor(maxEntries: number) {
    this.#maxEntries = maxEntries;
  }

  /** get returns the value and marks it most recently used (lru.Cache.Get). */
  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** add stores the value as most recently used, evicting the oldest entry when full (lru.Cache.Add). */
  add(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value as K);
  }

  /** size is the number of entries held. */
  get size(): number {
    return this.#entries.size;
  }
}
