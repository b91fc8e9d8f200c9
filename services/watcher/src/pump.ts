import type { WatchRecord } from '@kcm-bus/schemas/watch-record.ts';
import type { KubeObject } from './events.ts';

/** PumpItem is a record to publish, or progress that moves the reached resourceVersion without a record. */
export type PumpItem = WatchRecord<KubeObject> | { readonly type: 'Progress'; readonly resourceVersion: string };

/** PumpOptions bound one publication (a transaction) and the queue before producers must wait. */
export type PumpOptions = { readonly maxBatch: number; readonly highWater: number };

/**
 * Pump publishes queued records in order, one batch (one Kafka transaction) at a time: records that arrive
 * while a batch is in flight form the next one, so an idle stream publishes each event at once and a busy
 * one in large batches. What one push brings is published whole, in one transaction, however large: a relist's
 * Applied records, its synthetic deletes and its resourceVersion land together or not at all, so a crash can never
 * leave the topic at a resume point past deletes or changes it did not get. push waits while the queue is above
 * the high-water mark (backpressure on the watch stream). A publication failure stops the pump and is reported to
 * onFatal: the watcher exits, and a restart resumes from what the topic holds.
 */
export class Pump {
  readonly #publish: (records: readonly WatchRecord<KubeObject>[]) => Promise<void>;
  readonly #opts: PumpOptions;
  readonly #onFatal: (err: unknown) => void;
  /** #queue holds the pushes not yet published, each one whole. */
  readonly #queue: (readonly PumpItem[])[] = [];
  #queued = 0;
  readonly #drained: (() => void)[] = [];
  #running: Promise<void> = Promise.resolve();
  #draining = false;
  #reached: string | undefined;
  #failed = false;

  constructor(publish: (records: readonly WatchRecord<KubeObject>[]) => Promise<void>, opts: PumpOptions, onFatal: (err: unknown) => void,
    reached?: string) {
    this.#publish = publish;
    this.#opts = opts;
    this.#onFatal = onFatal;
    this.#reached = reached;
  }

  /** reached is the resourceVersion of the last item published (records and progress alike), at first the one
   * the topic already held. */
  get reached(): string | undefined {
    return this.#reached;
  }

  /** depth is the number of queued items. */
  get depth(): number {
    return this.#queued;
  }

  /** push queues items and starts publishing; it resolves once the queue is below the high-water mark. */
  async push(items: readonly PumpItem[]): Promise<void> {
    if (this.#failed) throw new Error('the pump has stopped after a failed publication');
    if (items.length === 0) return;
    this.#queue.push(items);
    this.#queued += items.length;
    // #draining is cleared by the drain itself in the same turn it sees the queue empty, so a push right after
    // always finds either a drain that will take its items or none (then it starts one): nothing waits in the queue.
    if (!this.#draining) {
      this.#draining = true;
      this.#running = this.#drain();
    }
    if (this.#queued > this.#opts.highWater) await new Promise<void>((resolve) => this.#drained.push(resolve));
  }

  /** flush resolves when everything queued so far is published. */
  async flush(): Promise<void> {
    while (this.#draining) await this.#running;
  }

  /** #nextBatch takes whole pushes up to maxBatch items (at least one push, however large). */
  #nextBatch(): PumpItem[] {
    const batch: PumpItem[] = [...this.#queue.shift() ?? []];
    while (this.#queue.length > 0 && batch.length + this.#queue[0]!.length <= this.#opts.maxBatch) batch.push(...this.#queue.shift()!);
    this.#queued -= batch.length;
    return batch;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#nextBatch();
        const records = batch.filter((i): i is WatchRecord<KubeObject> => i.type !== 'Progress');
        if (records.length > 0) await this.#publish(records);
        this.#reached = batch.at(-1)?.resourceVersion ?? this.#reached;
        if (this.#queued <= this.#opts.highWater) this.#drained.splice(0).forEach((resolve) => resolve());
      }
    } catch (err) {
      this.#failed = true;
      this.#onFatal(err);
    } finally {
      this.#draining = false;
    }
  }
}
