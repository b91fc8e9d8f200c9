/**
 * Backoff is the reflector's retry delay: exponential from 800 ms to 30 s with up to 100% jitter, as
 * client-go's reflector (wait.NewExponentialBackoffManager(800ms, 30s, 2m, 2.0, 1.0)); reset after a
 * watch was established.
 */
export class Backoff {
  readonly #initialMs: number;
  readonly #maxMs: number;
  readonly #random: () => number;
  #nextMs: number;

  constructor(opts: { readonly initialMs?: number; readonly maxMs?: number; readonly random?: () => number } = {}) {
    this.#initialMs = opts.initialMs ?? 800;
    this.#maxMs = opts.maxMs ?? 30_000;
    this.#random = opts.random ?? Math.random;
    this.#nextMs = this.#initialMs;
  }

  /** next is the delay before the next try; each call doubles the base up to the cap. */
  next(): number {
    const base = this.#nextMs;
    this.#nextMs = Math.min(this.#nextMs * 2, this.#maxMs);
    return base + base * this.#random();
  }

  /** reset starts again from the initial delay. */
  reset(): void {
    this.#nextMs = this.#initialMs;
  }
}
