import type { MutationResult } from '../mutation/mutation-result.ts';
import type { MutationCause } from '../mutation/mutation.ts';

/** KeyState is what a controller keeps of one key between its syncs. */
type KeyState = {
  /** cause is the input record (or tick) that last enqueued the key; attempt counts the syncs since it changed. */
  cause: MutationCause[];
  attempt: number;
  /** failures are the results of its writes that did not take effect, for its next sync to report. */
  failures: MutationResult[];
  /** report is the key's latest result that carried a report (a DeleteNamespaceContent's), until a sync takes it. */
  report: MutationResult | undefined;
  /** fresh: its cut for a fresh read was reached; its next sync reads `fresh`. */
  fresh: boolean;
  /** tickWaiters are the ticks waiting for a worker to take the key up. */
  tickWaiters: (() => void)[];
};

/** SyncStart is what a sync of a key reads of its state: its failures to report, its cause and attempt, freshness. */
export type SyncStart = {
  readonly failures: readonly MutationResult[];
  readonly report: MutationResult | undefined;
  readonly cause: readonly MutationCause[];
  readonly attempt: number;
  readonly fresh: boolean;
};

/**
 * KeyStates are a controller's per-key state, one record per key: what caused its next sync (and how many syncs ran
 * since, the attempt in its mutation ids), the failures that sync must report, the latest report one of its writes
 * brought back (what a command that reads found), whether it reads fresh, and the ticks
 * waiting for it. Everything of a key goes with it when its partition moves (dropWhere).
 */
export class KeyStates {
  readonly #keys = new Map<string, KeyState>();

  /** caused sets what enqueued the key: a new cause, its attempts counted from 0 again. */
  caused(key: string, cause: MutationCause): void {
    const state = this.#of(key);
    state.cause = [cause];
    state.attempt = 0;
  }

  /** failed keeps a write's failure for the key's next sync. */
  failed(key: string, result: MutationResult): void {
    this.#of(key).failures.push(result);
  }

  /** reported keeps a result that carries a report as the key's latest, for its next sync to take. */
  reported(key: string, result: MutationResult): void {
    this.#of(key).report = result;
  }

  /** freshRead notes that the key's next sync reads fresh (its cut for a fresh read was reached). */
  freshRead(key: string): void {
    this.#of(key).fresh = true;
  }

  /**
   * startSync takes what a sync reads: the failures to report and the latest report (both then cleared), cause,
   * attempt (then counted), freshness.
   */
  startSync(key: string): SyncStart {
    const state = this.#of(key);
    const { failures, report, cause, attempt, fresh } = state;
    const start = { failures, report, cause, attempt, fresh };
    Object.assign(state, { failures: [], report: undefined, attempt: state.attempt + 1, fresh: false });
    return start;
  }

  /** waitTick registers a tick waiting for a worker to take the key up. */
  waitTick(key: string, resolve: () => void): void {
    this.#of(key).tickWaiters.push(resolve);
  }

  /** tookUp lets go of the ticks that waited for the key. */
  tookUp(key: string): void {
    const state = this.#keys.get(key);
    for (const resolve of state?.tickWaiters.splice(0) ?? []) resolve();
  }

  /** tickKeys are the keys some tick waits for. */
  tickKeys(): readonly string[] {
    return [...this.#keys].filter(([, s]) => s.tickWaiters.length > 0).map(([key]) => key);
  }

  /** dropWhere forgets the matching keys (their partition moved away); their waiting ticks are let go. */
  dropWhere(pred: (key: string) => boolean): void {
    for (const key of [...this.#keys.keys()]) {
      if (!pred(key)) continue;
      this.tookUp(key);
      this.#keys.delete(key);
    }
  }

  #of(key: string): KeyState {
    let state = this.#keys.get(key);
    if (state === undefined)
      this.#keys.set(
        key,
        (state = { cause: [], attempt: 0, failures: [], report: undefined, fresh: false, tickWaiters: [] }),
      );
    return state;
  }
}
