import { compareResourceVersion } from '@kcm-bus/schemas/watch-record.ts';

/**
 * HOLD_LIMIT_MS bounds how long a key waits for its own writes: a result that never comes (the writer gone for good)
 * must not stall the key forever. Past it the sync runs on what the stores show, as without this gate (its status
 * write may then meet a Conflict and be retried).
 */
export const HOLD_LIMIT_MS = 120_000;

/** HELD_RETRY_MS: a key held for its own watch records is enqueued again by them; this is the fallback. */
export const HELD_RETRY_MS = 1000;

type Pending = { readonly ids: Set<string>; readonly since: number };

/** heldPastLimit: the pending writes have waited HOLD_LIMIT_MS for their results, and the key waits no longer. */
const heldPastLimit = (pending: Pending, now: number): boolean => now - pending.since >= HOLD_LIMIT_MS;

/** Written is what a write changed: the watched topic (by plural), the partition its object's records are on, the version. */
export type Written = { readonly topic: string; readonly partition: number; readonly resourceVersion: string };

/**
 * ReadYourWrites holds a key's next sync until the controller can read its own last writes, so a sync never acts
 * on a view older than what it wrote (the cause of status updates answered 409 Conflict). It is upstream's
 * ConsistencyStore (pkg/controller/util/consistency, KEP-5647, on by default for ReplicaSets since 1.36: WroteAt
 * records the resourceVersion a write returned, EnsureReady holds the key until the informer synced past it),
 * with the wait for the write itself added: upstream's writes are synchronous calls inside the sync, here a
 * write is a record the writer answers later, so a key first waits for the results of the writes it published
 * (events aside, as upstream records them asynchronously), then for its watch partitions to pass their versions.
 */
export class ReadYourWrites {
  readonly #pending = new Map<string, Pending>();
  /** #wrote: per key, the version each written topic partition must be read at (`topic:partition` → rv). */
  readonly #wrote = new Map<string, Map<string, string>>();
  readonly #read = new Map<string, string>();
  /** #held: keys found not ready for want of a watch record. */
  readonly #held = new Set<string>();

  /** published: the key's sync published writes with these mutation ids (before they are sent, so no result is missed). */
  published(key: string, ids: readonly string[], now: number): void {
    if (ids.length === 0) return;
    const pending = this.#pending.get(key) ?? { ids: new Set<string>(), since: now };
    for (const id of ids) pending.ids.add(id);
    this.#pending.set(key, pending);
  }

  /** unpublished: the writes were not sent after all (publishing failed). */
  unpublished(key: string, ids: readonly string[]): void {
    this.#answered(key, ids);
  }

  /**
   * resulted: the writer answered the key's mutation id; a write that changed the object at resourceVersion rv
   * must be read back, on the partition of the watched topic that object's records are on, before the key syncs
   * again (WroteAt). That is the key's own partition for a co-partitioned controller, any partition for one that
   * writes objects of a global input (node lifecycle's nodes). Returns true when the key has no write left in
   * flight (the caller enqueues it).
   */
  resulted(key: string, id: string, written?: Written): boolean {
    if (written !== undefined) this.#wroteAt(key, `${written.topic}:${written.partition}`, written.resourceVersion);
    return this.#answered(key, [id]);
  }

  /** inFlight: some of the key's published writes have no result yet. */
  inFlight(key: string): boolean {
    return this.#pending.has(key);
  }

  /**
   * retryInMs is when to look at a held key again if nothing enqueues it first: a key waiting for results is
   * enqueued by the last one, so only at the end of HOLD_LIMIT_MS (an earlier timer would cut short a backoff the
   * key gets meanwhile: a delayed key keeps its earliest time); one waiting for its watch records after HELD_RETRY_MS.
   */
  retryInMs(key: string, now: number): number {
    const pending = this.#pending.get(key);
    return pending === undefined ? HELD_RETRY_MS : Math.max(0, HOLD_LIMIT_MS - (now - pending.since));
  }

  /**
   * readAt: the consumer read a record of topic's partition at resourceVersion rv (LastStoreSyncResourceVersion).
   * Returns the held keys this record lets through (the caller enqueues them): a key waiting for its own write to
   * come back syncs as soon as the record arrives, not at its next retry.
   */
  readAt(topic: string, partition: number, rv: string): readonly string[] {
    // A record without a version (a tombstone) tells nothing of how far the partition was read.
    if (rv === '') return [];
    const at = `${topic}:${partition}`;
    const last = this.#read.get(at);
    // A version that does not compare is taken as the newer one.
    if (last === undefined || (compareResourceVersion(rv, last) ?? 1) > 0) this.#read.set(at, rv);
    const released = [...this.#held].filter((key) => this.#wrote.get(key)?.has(at) && this.#readBack(key));
    for (const key of released) this.#held.delete(key);
    return released;
  }

  /**
   * overdue: the key's writes whose results did not come within HOLD_LIMIT_MS, and how long they were waited for; the
   * next ready() lets the key sync without them. A result that never comes is a fault to be seen (a writer gone for
   * good, a result lost between the writer and this member), not a wait to pass over in silence.
   */
  overdue(key: string, now: number): { readonly ids: readonly string[]; readonly waitedMs: number } | undefined {
    const pending = this.#pending.get(key);
    if (pending === undefined || !heldPastLimit(pending, now)) return undefined;
    return { ids: [...pending.ids], waitedMs: now - pending.since };
  }

  /**
   * ready says whether the key may sync (EnsureReady): none of its writes in flight (or held past HOLD_LIMIT_MS),
   * and every partition it wrote to read at or past the version written. A ready key's record is cleared.
   */
  ready(key: string, now: number): boolean {
    const pending = this.#pending.get(key);
    if (pending !== undefined && !heldPastLimit(pending, now)) return false;
    this.#pending.delete(key);
    if (!this.#readBack(key)) {
      this.#held.add(key);
      return false;
    }
    this.#held.delete(key);
    this.#wrote.delete(key);
    return true;
  }

  /**
   * #readBack: every topic partition the key wrote to was read at or past the version written. A partition never
   * read (a topic the controller does not consume; a consumed one has a watermark every few seconds) and versions that
   * do not compare hold nothing, as upstream.
   */
  #readBack(key: string): boolean {
    for (const [at, wrote] of this.#wrote.get(key) ?? []) {
      const read = this.#read.get(at);
      if (read !== undefined && (compareResourceVersion(wrote, read) ?? 0) > 0) return false;
    }
    return true;
  }

  /** dropWhere drops the records of the matching keys (their partition was revoked). */
  dropWhere(pred: (key: string) => boolean): void {
    for (const map of [this.#pending, this.#wrote]) for (const key of [...map.keys()]) if (pred(key)) map.delete(key);
    for (const key of [...this.#held]) if (pred(key)) this.#held.delete(key);
  }

  #wroteAt(key: string, at: string, rv: string): void {
    const wrote = this.#wrote.get(key) ?? new Map<string, string>();
    const last = wrote.get(at);
    // A version that does not compare is taken as the newer one.
    if (last === undefined || (compareResourceVersion(rv, last) ?? 1) > 0) wrote.set(at, rv);
    this.#wrote.set(key, wrote);
  }

  /** #answered drops ids from the key's pending writes; true when that answered the last of them. */
  #answered(key: string, ids: readonly string[]): boolean {
    const pending = this.#pending.get(key);
    if (pending === undefined) return false;
    for (const id of ids) pending.ids.delete(id);
    if (pending.ids.size > 0) return false;
    this.#pending.delete(key);
    return true;
  }
}
