/** CUT_RETRY_MS: a key waiting for its cut is looked at again this often (watermarks come every second). */
export const CUT_RETRY_MS = 100;

/**
 * CUT_LIMIT_MS bounds the wait: watermarks that stop (a watcher down) must not stall the key; past it the key syncs
 * on what the stores hold, as without the cut.
 */
export const CUT_LIMIT_MS = 5000;

type Cut = { readonly at: number; readonly since: number };

/**
 * Cuts hold keys until the co-partitioned inputs are known complete up to a time: the watcher writes each kind in
 * transactions of its own, so a record of one topic (an RC just created) can be read before records of another that
 * the watcher saw earlier (the pods created just before it); informers on one apiserver watch rarely show that skew,
 * a pipeline of per-kind transactions does. A key enqueued at a cut syncs once every input's watermark on its
 * partition has reached the time the watcher saw the cause, or after CUT_LIMIT_MS.
 */
export class Cuts {
  readonly #cuts = new Map<string, Cut>();

  /** at holds the key until its inputs are complete up to `observedAt` (the latest of its cuts). */
  at(key: string, observedAt: Date, now: number): void {
    const cut = this.#cuts.get(key);
    this.#cuts.set(key, { at: Math.max(cut?.at ?? 0, observedAt.getTime()), since: cut?.since ?? now });
  }

  /** reached: the key may sync (no cut, its inputs are complete up to it, or it waited CUT_LIMIT_MS); a reached cut is cleared. */
  reached(key: string, inputsAt: Date | undefined, now: number): boolean {
    const cut = this.#cuts.get(key);
    if (cut !== undefined && (inputsAt?.getTime() ?? -Infinity) < cut.at && now - cut.since < CUT_LIMIT_MS) return false;
    this.#cuts.delete(key);
    return true;
  }
}
