/**
 * Backoff is k8s.io/apimachinery wait.Backoff's parameters, in ms: the first delay is durationMs (Duration), each
 * step multiplies it by factor (Factor) up to capMs (Cap), and each delay is stretched by a random share of up to
 * jitter times itself (Jitter, as wait.Jitter). How many tries to make (Steps) is the caller's.
 * capJittered is not upstream: upstream's Step caps the delay before its jitter, so a reflector's wait reaches twice
 * its 30 s cap; with capJittered the stretched delay is capped again (the writer never waits past its cap).
 */
export type Backoff = {
  readonly durationMs: number;
  readonly factor: number;
  readonly jitter: number;
  readonly capMs: number;
  readonly capJittered?: boolean;
};

/**
 * backoffDelay is the wait before retry number step + 1 (step 0: the first retry), what wait.Backoff.Step returns on
 * its (step + 1)-th call: durationMs·factor^step capped at capMs, plus its random share (random returns [0, 1) and is
 * called only when jitter > 0). A delay the server asked for (Retry-After, as client-go's rest client reads it)
 * replaces the computed one, capped at capMs as well. Factor ≥ 1: the closed form of Step's repeated multiply-and-cap.
 */
export function backoffDelay(
  backoff: Backoff,
  step: number,
  random: () => number = Math.random,
  retryAfterMs: number | null = null,
): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, backoff.capMs);
  const delay = Math.min(backoff.durationMs * backoff.factor ** step, backoff.capMs);
  if (backoff.jitter <= 0) return delay;
  const jittered = delay + delay * backoff.jitter * random();
  return backoff.capJittered ? Math.min(jittered, backoff.capMs) : jittered;
}

/**
 * ExponentialBackoff is a Backoff with its count of steps taken: next is wait.Backoff.Step (the delay, and one step
 * on), reset starts again at durationMs. client-go's reflector (wait.NewExponentialBackoffManager, now
 * Backoff.DelayWithReset) also resets by itself after resetDuration (2 min) without a backoff; here the caller resets
 * when it succeeded (the reflector once a watch delivered, the watcher's publisher once a batch was written).
 */
export class ExponentialBackoff {
  readonly #backoff: Backoff;
  readonly #random: () => number;
  #step = 0;

  constructor(backoff: Backoff, random: () => number = Math.random) {
    this.#backoff = backoff;
    this.#random = random;
  }

  /** next is the delay before the next try; each call takes one step toward the cap. */
  next(): number {
    return backoffDelay(this.#backoff, this.#step++, this.#random);
  }

  /** reset starts again from durationMs. */
  reset(): void {
    this.#step = 0;
  }
}
