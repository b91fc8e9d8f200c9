/** ScheduledEviction is a pod's pending eviction: fireAt is when it is due (epoch ms), upstream's TimedWorker.FireAt. */
export type ScheduledEviction = { readonly fireAt: number };

/** FiredEviction is an eviction this member published for the pod of that uid, and how many times it tried (upstream's retries). */
export type FiredEviction = { readonly uid: string; readonly attempts: number };

/**
 * TimedEvictions is this member's memory of evictions, upstream's TimedWorkerQueue without timers: the scheduled
 * ones by pod key (`namespace/name`), so a reconcile keeps an existing schedule as processPodOnNode keeps a
 * running timer, and knows whether a cancel cancels something (the Cancelling event); and the fired ones, so the
 * reconcile that follows the eviction's own writes does not evict the terminating pod again. A timer is a
 * requeueAfter of the key; a member that starts (or gains the partition) empty recomputes every schedule from
 * the objects, as upstream's restart recomputes them from the informers.
 */
export class TimedEvictions {
  readonly #scheduled = new Map<string, ScheduledEviction>();
  readonly #fired = new Map<string, FiredEviction>();

  /** scheduled is the pod's pending eviction (GetWorkerUnsafe). */
  scheduled(key: string): ScheduledEviction | undefined {
    return this.#scheduled.get(key);
  }

  /** schedule records a pending eviction (AddWork with a fireAt in the future). */
  schedule(key: string, eviction: ScheduledEviction): void {
    this.#scheduled.set(key, eviction);
  }

  /**
   * cancel drops the pod's pending eviction, and the mark of one fired (a reconcile that cancels has found none for
   * the pod's uid); true when one was pending (CancelWork's answer, which decides the event).
   */
  cancel(key: string): boolean {
    this.#fired.delete(key);
    return this.#scheduled.delete(key);
  }

  /** fired is the eviction published for this pod uid; a mark of another uid (a namesake) is dropped. */
  fired(key: string, uid: string): FiredEviction | undefined {
    const mark = this.#fired.get(key);
    if (mark !== undefined && mark.uid !== uid) this.#fired.delete(key);
    return mark?.uid === uid ? mark : undefined;
  }

  /** fire records one more eviction attempt for the pod; the work leaves the schedule (the timer ran). Returns the attempt number. */
  fire(key: string, uid: string): number {
    this.#scheduled.delete(key);
    const attempts = (this.fired(key, uid)?.attempts ?? 0) + 1;
    this.#fired.set(key, { uid, attempts });
    return attempts;
  }
}
