/**
 * FetchLinger holds a consumer's next fetch a while after one that brought records, so that what arrives meanwhile
 * comes in one fetch: the consumer-side counterpart of a producer's linger.ms. Every batch of one fetch awaits the same
 * wait (kafkajs fetches again once every batch of the last fetch is done), which starts when the first of them is
 * done: a lone record after a quiet spell is still handled at once, and a steady trickle (500 nodes' Lease renewals,
 * 50 a second) costs one fetch per wait instead of one per record. A fetch that brings nothing is not held.
 */
export class FetchLinger {
  readonly #ms: number;
  readonly #sleep: (ms: number) => Promise<void>;
  #wait: Promise<void> | undefined;

  constructor(ms: number, sleep: (ms: number) => Promise<void> = defaultSleep) {
    this.#ms = ms;
    this.#sleep = sleep;
  }

  /** afterBatch resolves when the next fetch may go: at once without a linger, else when the current wait ends. */
  afterBatch(): Promise<void> {
    if (this.#ms <= 0) return Promise.resolve();
    this.#wait ??= this.#sleep(this.#ms).finally(() => {
      this.#wait = undefined;
    });
    return this.#wait;
  }
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
