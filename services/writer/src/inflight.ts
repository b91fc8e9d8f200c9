import { OffsetLog } from './offset-log.ts';

/**
 * InflightRecord is what the scheduler needs of a consumed record: where it came from, what it writes, and its lane
 * (the controller that sent it; records without one share a lane).
 */
export type InflightRecord = {
  readonly partition: number;
  readonly offset: number;
  readonly key: string;
  readonly lane?: string;
};

/** laneOf is the lane a record runs in. */
const laneOf = (r: InflightRecord): string => r.lane ?? '';

/**
 * InflightScheduler decides which consumed mutations may be sent now: per key (targetKey) strictly one after the
 * other in offset order, across keys up to `concurrency` at once in each lane, so the thousand creates of one RC (one
 * partition, distinct keys) do not go one request at a time, and a controller whose records wait for its API budget
 * holds no slot of another (a key is in the lane of the record at its head), as each upstream controller has a client
 * and workers of its own. It also tracks, per partition, the offset that may be committed:
 * a record counts as done when its result is published, and the commit never passes an undone record.
 * A record that needs no request (a DLQ'd one) is added under a key of its own and marked done once handled.
 * Like client-go's workqueue it never hands one key to two workers; unlike it, it keeps every record in order.
 */
export class InflightScheduler<T extends InflightRecord> {
  readonly #concurrency: number;
  readonly #queues = new Map<string, T[]>();
  readonly #busy = new Set<string>();
  /** ready keys by the lane of their head record, in the order they became ready. */
  readonly #ready = new Map<string, Set<string>>();
  readonly #running = new Map<T, number>();
  readonly #runningIn = new Map<string, number>();
  readonly #logs = new Map<number, OffsetLog>();
  readonly #epochs = new Map<number, number>();

  constructor(concurrency: number) {
    if (!Number.isSafeInteger(concurrency) || concurrency < 1)
      throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
    this.#concurrency = concurrency;
  }

  /**
   * add queues a consumed record behind earlier ones of its key (a redelivered offset too: see OffsetLog); false,
   * and nothing queued, when the same offset is still outstanding (fetched again before its first delivery was done).
   */
  add(record: T): boolean {
    if (!this.#logFor(record.partition).add(record.offset)) return false;
    const queue = this.#queues.get(record.key);
    if (queue) queue.push(record);
    else this.#queues.set(record.key, [record]);
    if (!this.#busy.has(record.key)) this.#markReady(record.key);
    return true;
  }

  /** take hands out every record that may run now (head of an idle key, up to concurrency a lane), oldest ready first. */
  take(): T[] {
    const runnable: T[] = [];
    for (const [lane, keys] of this.#ready) {
      for (const key of keys) {
        if ((this.#runningIn.get(lane) ?? 0) >= this.#concurrency) break;
        this.#unmarkReady(key);
        runnable.push(this.#start(key));
      }
    }
    return runnable;
  }

  /**
   * done marks a taken record's result published: its key may run its next record and its offset counts toward
   * the commit, unless its partition was revoked while it ran.
   */
  done(record: T): void {
    const epoch = this.#release(record);
    if (epoch === (this.#epochs.get(record.partition) ?? 0)) this.#logs.get(record.partition)?.complete(record.offset);
  }

  /** abandon gives up a taken record without a result: its key may run its next record, its offset stays undone. */
  abandon(record: T): void {
    this.#release(record);
  }

  /** committable is the next offset of the partition to commit (last done + 1), undefined if none was added. */
  committable(partition: number): number | undefined {
    return this.#logs.get(partition)?.committable();
  }

  /**
   * revoke forgets a partition lost in a rebalance: its queued records are dropped and returned (the next owner
   * re-reads them) and its commit position forgotten; records of it still in flight keep their keys busy until
   * done, so a re-assigned partition cannot run a key twice at once.
   */
  revoke(partition: number): T[] {
    this.#epochs.set(partition, (this.#epochs.get(partition) ?? 0) + 1);
    this.#logs.delete(partition);
    const dropped: T[] = [];
    for (const [key, queue] of this.#queues) {
      const kept = queue.filter((r) => r.partition !== partition);
      dropped.push(...queue.filter((r) => r.partition === partition));
      this.#unmarkReady(key);
      if (kept.length > 0) this.#queues.set(key, kept);
      else this.#queues.delete(key);
      if (kept.length > 0 && !this.#busy.has(key)) this.#markReady(key);
    }
    return dropped;
  }

  /** pending counts a partition's records added and not yet done (queued, running, or behind one that runs). */
  pending(partition: number): number {
    return this.#logs.get(partition)?.pending() ?? 0;
  }

  /** inFlight counts records taken and not yet done (what a graceful shutdown waits for). */
  inFlight(): number {
    return this.#running.size;
  }

  /** queued counts records added and not yet taken. */
  queued(): number {
    let n = 0;
    for (const queue of this.#queues.values()) n += queue.length;
    return n;
  }

  #release(record: T): number {
    const epoch = this.#running.get(record);
    if (epoch === undefined)
      throw new Error(`record ${record.partition}@${record.offset} (${record.key}) is not in flight`);
    this.#running.delete(record);
    const lane = laneOf(record);
    const left = (this.#runningIn.get(lane) ?? 1) - 1;
    if (left > 0) this.#runningIn.set(lane, left);
    else this.#runningIn.delete(lane);
    this.#busy.delete(record.key);
    if (this.#queues.has(record.key)) this.#markReady(record.key);
    return epoch;
  }

  /** start takes the head record of a ready key as running in its lane. */
  #start(key: string): T {
    const queue = this.#queues.get(key)!;
    const record = queue.shift()!;
    if (queue.length === 0) this.#queues.delete(key);
    this.#busy.add(key);
    this.#running.set(record, this.#epochs.get(record.partition) ?? 0);
    this.#runningIn.set(laneOf(record), (this.#runningIn.get(laneOf(record)) ?? 0) + 1);
    return record;
  }

  /** markReady puts an idle key with queued records in the lane of its head record. */
  #markReady(key: string): void {
    const lane = laneOf(this.#queues.get(key)![0]!);
    let keys = this.#ready.get(lane);
    if (!keys) this.#ready.set(lane, (keys = new Set()));
    keys.add(key);
  }

  /** unmarkReady takes a key out of its lane's ready keys, if it is there; call it before its head record changes. */
  #unmarkReady(key: string): void {
    const head = this.#queues.get(key)?.[0];
    if (head === undefined) return;
    const keys = this.#ready.get(laneOf(head));
    if (keys?.delete(key) && keys.size === 0) this.#ready.delete(laneOf(head));
  }

  #logFor(partition: number): OffsetLog {
    let log = this.#logs.get(partition);
    if (!log) this.#logs.set(partition, (log = new OffsetLog()));
    return log;
  }
}
