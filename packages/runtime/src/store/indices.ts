/** IndexFunc computes the values an object is indexed under (client-go's IndexFunc); [] leaves it out of the index. */
export type IndexFunc<T> = (obj: T) => readonly string[];

/** Indexers names the index functions of a store (client-go's Indexers), e.g. { controllerUID: byControllerUID }. */
export type Indexers<T> = Readonly<Record<string, IndexFunc<T>>>;

/**
 * Indices keeps, for every named index, index value → the keys of the objects under it, updated from an object's
 * old and new state on every change. Empty key sets are removed so short-lived values do not pile up
 * (kubernetes#84959). Mirrors client-go's storeIndex (thread_safe_store.go).
 */
export class Indices<T> {
  readonly #indexers: ReadonlyMap<string, IndexFunc<T>>;
  readonly #indices = new Map<string, Map<string, Set<string>>>();

  constructor(indexers: Indexers<T>) {
    this.#indexers = new Map(Object.entries(indexers));
    for (const name of this.#indexers.keys()) this.#indices.set(name, new Map());
  }

  /** update moves key from the values of oldObj to those of newObj in every index. Mirrors storeIndex.updateIndices. */
  update(key: string, oldObj: T | undefined, newObj: T | undefined): void {
    for (const [name, indexFunc] of this.#indexers) {
      const index = this.#indices.get(name)!;
      const oldValues = oldObj === undefined ? [] : indexFunc(oldObj);
      const newValues = newObj === undefined ? [] : indexFunc(newObj);
      if (oldValues.length === 1 && newValues.length === 1 && oldValues[0] === newValues[0]) continue;
      for (const value of oldValues) removeKey(index, value, key);
      for (const value of newValues) addKey(index, value, key);
    }
  }

  /**
   * keys is the set of keys under value in the named index, live (read it before the next update); an unknown
   * index name is a programming error and throws, as client-go's ByIndex returns "Index with name %s does not exist".
   */
  keys(name: string, value: string): ReadonlySet<string> {
    const index = this.#indices.get(name);
    if (!index) throw new Error(`Index with name ${name} does not exist`);
    return index.get(value) ?? NO_KEYS;
  }

  /** values lists the index values that have at least one key in the named index. Mirrors ListIndexFuncValues. */
  values(name: string): readonly string[] {
    return [...(this.#indices.get(name)?.keys() ?? [])];
  }
}

const NO_KEYS: ReadonlySet<string> = new Set();

function addKey(index: Map<string, Set<string>>, value: string, key: string): void {
  const keys = index.get(value);
  if (keys) keys.add(key);
  else index.set(value, new Set([key]));
}

function removeKey(index: Map<string, Set<string>>, value: string, key: string): void {
  const keys = index.get(value);
  if (!keys) return;
  keys.delete(key);
  if (keys.size === 0) index.delete(value);
}
