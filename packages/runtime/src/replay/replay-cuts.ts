import type { MutationCause } from '../mutation/mutation.ts';
import { CUT_LIMIT_MS } from '../reconcile/cuts.ts';

type Waiting = { readonly partition: number; readonly at: number; readonly since: number; readonly cause: MutationCause };

/**
 * ReplayCuts hold the keys a handler enqueued at a cut (HandlerOutput.enqueueAtCut) as the runtime's Cuts do: until
 * every input topic's watermark on the record's partition has passed the time the watcher saw the record, or
 * CUT_LIMIT_MS of history went by. The watermarks are the history's own, so a replayed sync happens when the
 * deployed one could, not at once.
 */
export class ReplayCuts {
  readonly #waiting = new Map<string, Waiting>();
  readonly #partitions: ReadonlyMap<string, number>;
  readonly #watermark: (topic: string, partition: number) => Date | undefined;

  constructor(partitions: ReadonlyMap<string, number>, watermark: (topic: string, partition: number) => Date | undefined) {
    this.#partitions = partitions;
    this.#watermark = watermark;
  }

  /** wait holds the key for the cut at time `at` (ms, the watcher's clock) of a record of `partition`, seen `since`. */
  wait(key: string, partition: number, at: number, since: number, cause: MutationCause): void {
    const earlier = this.#waiting.get(key);
    if (earlier === undefined || earlier.at > at) this.#waiting.set(key, { partition, at, since, cause });
  }

  /** reached takes out the keys whose cut is reached (or waited CUT_LIMIT_MS by `now`), with the cause each waited on. */
  reached(now: number): { readonly key: string; readonly cause: MutationCause }[] {
    const out: { key: string; cause: MutationCause }[] = [];
    for (const [key, w] of this.#waiting) {
      if (!this.#complete(w.partition, w.at) && now - w.since < CUT_LIMIT_MS) continue;
      this.#waiting.delete(key);
      out.push({ key, cause: w.cause });
    }
    return out;
  }

  #complete(partition: number, at: number): boolean {
    return [...this.#partitions].filter(([, n]) => partition < n).every(([topic]) => (this.#watermark(topic, partition)?.getTime() ?? -Infinity) >= at);
  }
}
