/**
 * Batcher sends items in batches, one batch in flight at a time: what arrives while a batch is on its way
 * forms the next one. push resolves when the batch holding the item was sent (or rejects with its error).
 * It lets an idempotent producer, which keeps one request in flight, publish many results per round trip.
 */
export class Batcher<T> {
  readonly #send: (items: readonly T[]) => Promise<void>;
  #queue: { item: T; resolve: () => void; reject: (err: unknown) => void }[] = [];
  #running = false;

  constructor(send: (items: readonly T[]) => Promise<void>) {
    this.#send = send;
  }

  /** push queues an item and resolves once it is sent. */
  push(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (!this.#running) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#running = true;
    while (this.#queue.length > 0) {
      const batch = this.#queue;
      this.#queue = [];
      try {
        await this.#send(batch.map((b) => b.item));
        batch.forEach((b) => b.resolve());
      } catch (err) {
        batch.forEach((b) => b.reject(err));
      }
    }
    this.#running = false;
  }
}
