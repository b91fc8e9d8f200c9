/**
 * CUT_RETRY_MS: a key waiting for its cut is looked at again this often (a change brings every kind's watermark
 * within about one hop, then one a second while changes go on).
 */
export const CUT_RETRY_MS = 100;

/**
 * CUT_LIMIT_MS bounds the wait: watermarks that stop (a watcher down) must not stall the key; past it the key syncs
 * on what the stores hold, as without the cut (and a fresh read is then not fresh).
 */
export const CUT_LIMIT_MS = 5000;

type Cut = { readonly at: number; readonly since: number; readonly fresh: boolean };

/**
 * CutState is what the worker does with a key: `wait` for its inputs, sync it (`go`), or sync it `fresh`: its
 * stores are known complete up to the time one of its syncs asked for a fresh read.
 */
export type CutState = 'wait' | 'go' | 'fresh';

/**
 * Cuts make keys wait until the co-partitioned inputs are known complete up to a time: the watcher writes each kind in
 * transactions of its own, so a record of one topic (an RC just created) can be read before records of another that
 * the watcher saw earlier (the pods created just before it); informers on one apiserver watch rarely show that skew,
 * a pipeline of per-kind transactions does. A key enqueued at a cut syncs once every input's watermark on its
 * partition has reached the time the watcher saw the cause, or after CUT_LIMIT_MS. A fresh read is a cut at the
 * time a sync asked for it: the view a reconcile gets in place of upstream's uncached GET.
 */
export class Cuts {
  readonly #cuts = new Map<string, Cut>();

  /** at makes the key wait until its inputs are complete up to `observedAt` (the latest of its cuts). */
  at(key: string, observedAt: Date, now: number): void {
    this.#set(key, observedAt.getTime(), now, false);
  }

  /** fresh makes the key wait until its inputs are complete up to now; the sync that follows is told it reads fresh. */
  fresh(key: string, now: number): void {
    this.#set(key, now, now, true);
  }

  /** state: whether the key may sync, and how fresh its view is; a cut reached or expired is cleared. */
  state(key: string, inputsAt: Date | undefined, now: number): CutState {
    const cut = this.#cuts.get(key);
    if (cut === undefined) return 'go';
    const reached = (inputsAt?.getTime() ?? -Infinity) >= cut.at;
    if (!reached && now - cut.since < CUT_LIMIT_MS) return 'wait';
    this.#cuts.delete(key);
    return reached && cut.fresh ? 'fresh' : 'go';
  }

  /** dropWhere forgets the cuts of keys whose partitions this member lost. */
  dropWhere(pred: (key: string) => boolean): void {
    for (const key of [...this.#cuts.keys()]) if (pred(key)) this.#cuts.delete(key);
  }

  #set(key: string, at: number, now: number, fresh: boolean): void {
    const cut = this.#cuts.get(key);
    this.#cuts.set(key, {
      at: Math.max(cut?.at ?? 0, at),
      since: cut?.since ?? now,
      fresh: fresh || (cut?.fresh ?? false),
    });
  }
}
