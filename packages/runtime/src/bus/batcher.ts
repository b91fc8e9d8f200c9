/** BatcherOptions shape how a Batcher forms its batches and what a failed one means. */
export type BatcherOptions = {
  /**
   * gather is awaited before each batch is taken from the queue, so what is pushed meanwhile joins it (a wait for
   * the next turn of the event loop gathers the pushes of one turn). It must not reject. Default: none, a batch
   * starts at once.
   */
  readonly gather?: () => Promise<void>;
  /**
   * alone tells whether a batch of several items that failed with err is sent again one item at a time, so that an
   * item no send can take fails only its own push. Default: never (every push of the batch rejects).
   */
  readonly alone?: (err: unknown) => boolean;
};

type Queued<T, R> = { item: T; resolve: (result: R) => void; reject: (err: unknown) => void };

/**
 * Batcher sends items in batches, one batch in flight at a time: what arrives while a batch is on its way
 * forms the next one. push resolves when the batch holding the item was sent, with what its send returned (every
 * item of a batch gets the batch's result), or rejects with its error.
 * It lets an idempotent producer, which keeps one request in flight, publish many results per round trip, and a
 * transactional one put what several callers publish at once in one transaction.
 */
export class Batcher<T, R = void> {
  readonly #send: (items: readonly T[]) => Promise<R>;
  readonly #options: BatcherOptions;
  #queue: Queued<T, R>[] = [];
  #running = false;

  constructor(send: (items: readonly T[]) => Promise<R>, options: BatcherOptions = {}) {
    this.#send = send;
    this.#options = options;
  }

  /** push queues an item and resolves once it is sent, with its batch's result. */
  push(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (!this.#running) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#running = true;
    while (this.#queue.length > 0) {
      if (this.#options.gather) await this.#options.gather();
      const batch = this.#queue;
      this.#queue = [];
      await this.#sendBatch(batch);
    }
    this.#running = false;
  }

  async #sendBatch(batch: readonly Queued<T, R>[]): Promise<void> {
    try {
      const result = await this.#send(batch.map((b) => b.item));
      batch.forEach((b) => b.resolve(result));
    } catch (err) {
      if (batch.length > 1 && this.#options.alone?.(err) === true) {
        for (const b of batch) await this.#sendBatch([b]);
        return;
      }
      batch.forEach((b) => b.reject(err));
    }
  }
}
