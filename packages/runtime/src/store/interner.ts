/**
 * Interner shares one copy of each string that repeats across cached objects: namespaces, owner names and UIDs,
 * label values, node names, phases, the timestamps of a burst. A decoded record carries fresh copies of all of
 * them, which a cache of 10,000 pods would otherwise hold 10,000 times. A projection interns what it keeps, and
 * only what repeats: interning unique values (a pod's own name, UID, resourceVersion) would only churn the table.
 *
 * Bounded: once it holds `capacity` strings it starts afresh (strings shared so far stay shared), so values that
 * stopped repeating, such as last hour's timestamps, do not live on in it.
 */
export class Interner {
  readonly #strings = new Map<string, string>();
  readonly #capacity: number;

  constructor(capacity = 65_536) {
    this.#capacity = capacity;
  }

  /** intern returns the table's copy of s, adding s when it has none (undefined passes through). */
  intern<S extends string | undefined>(s: S): S {
    if (s === undefined) return s;
    const shared = this.#strings.get(s);
    if (shared !== undefined) return shared as S;
    if (this.#strings.size >= this.#capacity) this.#strings.clear();
    this.#strings.set(s, s);
    return s;
  }

  /** internValues interns every value of a string map (labels, annotations); keys are already shared by V8. */
  internValues(m: Readonly<Record<string, string>> | undefined): Readonly<Record<string, string>> | undefined {
    if (m === undefined) return m;
    const out: Record<string, string> = {};
    for (const k of Object.keys(m)) out[k] = this.intern(m[k] as string);
    return out;
  }

  /** size is how many strings the table holds. */
  get size(): number {
    return this.#strings.size;
  }
}
