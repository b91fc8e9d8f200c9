/** Closable is what the slot needs of a producer: a way to let it go. */
export type Closable = { disconnect(): Promise<void> };

/**
 * ProducerSlot holds the producer a publisher sends through. A send that failed drops the producer it went through
 * (once, however many sends saw it fail together) and the next send opens a new one: a new producer id, whose
 * sequence numbers start again. That is what a failed send needs: kafkajs 2.2.4 retries a send's requests itself
 * (endlessly, for the publishers), so a failure that reaches the caller is one kafkajs cannot retry, and the
 * producer's own state may be what is wrong (a transaction left open by a broker that went away; an idempotent
 * producer's sequence that a new partition leader refuses as OUT_OF_ORDER_SEQUENCE_NUMBER after a broker's kill, which
 * the same producer meets on every retry). The Java client does the same for an idempotent producer (KIP-360: a new
 * epoch, its sequences reset). A resent record may then be written twice, never lost.
 */
export class ProducerSlot<P extends Closable> {
  readonly #open: () => Promise<P>;
  #current: Promise<P> | undefined;
  #producer: P | undefined;

  constructor(open: () => Promise<P>) {
    this.#open = open;
  }

  /** ready opens the producer if none is open (a failed open is forgotten, and the next call opens again). */
  async ready(): Promise<P> {
    const current = (this.#current ??= this.#open().then((p) => (this.#producer = p)));
    try {
      return await current;
    } catch (err) {
      if (this.#current === current) this.#current = undefined;
      throw err;
    }
  }

  /**
   * use sends through the producer; when the send fails, it drops that producer (unless keep says the failure is not
   * the producer's: a fenced transactional producer must not be replaced by one that fences the newer) and rethrows.
   */
  async use<T>(send: (producer: P) => Promise<T>, keep: (err: unknown) => boolean = () => false): Promise<T> {
    const producer = await this.ready();
    try {
      return await send(producer);
    } catch (err) {
      if (!keep(err) && this.#producer === producer) await this.#drop(producer);
      throw err;
    }
  }

  /** close lets the open producer go, if any. */
  async close(): Promise<void> {
    const current = this.#current;
    this.#current = this.#producer = undefined;
    const producer = await current?.catch(() => undefined);
    await producer?.disconnect();
  }

  async #drop(producer: P): Promise<void> {
    this.#current = this.#producer = undefined;
    await producer.disconnect().catch(() => undefined);
  }
}
