import type { OutgoingRecord, ProducedOffsets, TopicRecords } from '@kcm-bus/runtime/bus/index.ts';
import { EPOCH_HEADER, HISTORY_NEXT_HEADER, WATERMARK_KEY } from '@kcm-bus/schemas/watch-record.ts';

/** CheckpointedKind is one kind as the checkpoints write it: its topics, partitions, and its marker's value now. */
export type CheckpointedKind = {
  readonly state: string;
  readonly history: string;
  readonly partitions: number;
  /** marker is the value of the kind's markers: its latest watermark record (the time its history is complete up to). */
  readonly marker: () => Buffer;
};

/** CheckpointTiming: how often a checkpoint goes out while records wait, and at least how often when none do. */
export type CheckpointTiming = { readonly intervalMs: number; readonly idleIntervalMs: number };

type Pending = { readonly kind: CheckpointedKind; records: OutgoingRecord[]; readonly next: Map<number, bigint> };

/**
 * StateCheckpoints write the state topics: what the history topics took since the last checkpoint (each record
 * once it is acknowledged there, tombstones after deletes), and for every partition of every kind a marker (a
 * watermark record under WATERMARK_KEY) that names the first history offset the state does not hold yet
 * (HISTORY_NEXT_HEADER), all in one transaction. A member restores from a state topic, then reads its history from
 * the markers on: the state stays about one record per live object, written at most once per interval however many
 * changes came, and no zombie can write it (its transactions are fenced). The markers go out at least once per idle
 * interval, so a watcher a newer one fenced finds out and exits within it.
 */
export class StateCheckpoints {
  readonly #send: (batches: readonly TopicRecords[]) => Promise<unknown>;
  readonly #epoch: string;
  readonly #kinds = new Map<string, Pending>();
  #dirty = false;

  constructor(send: (batches: readonly TopicRecords[]) => Promise<unknown>, epoch: string) {
    this.#send = send;
    this.#epoch = epoch;
  }

  /** register adds a kind whose history is known complete up to next (per partition; absent: offset 0). */
  register(kind: CheckpointedKind, next: ReadonlyMap<number, bigint>): void {
    this.#kinds.set(kind.state, { kind, records: [], next: new Map(next) });
  }

  /** add queues a kind's state records for the next checkpoint, with the history offsets their records took. */
  add(state: string, records: readonly OutgoingRecord[], produced: ProducedOffsets): void {
    const pending = this.#kinds.get(state);
    if (pending === undefined) throw new Error(`no checkpointed kind has the state topic ${state}`);
    pending.records.push(...records);
    for (const o of produced)
      if (o.topic === pending.kind.history) pending.next.set(o.partition, BigInt(o.lastOffset) + 1n);
    this.#dirty = true;
  }

  /** dirty tells whether records wait for a checkpoint. */
  get dirty(): boolean {
    return this.#dirty;
  }

  /**
   * flush writes one checkpoint (and `extra`, such as a new watcher's fence, in the same transaction). What it took
   * is put back if the transaction fails, ahead of what came meanwhile, and the failure is the caller's.
   */
  async flush(extra: readonly TopicRecords[] = []): Promise<void> {
    const taken = [...this.#kinds.values()].map((p) => ({ p, records: p.records, next: new Map(p.next) }));
    for (const t of taken) t.p.records = [];
    this.#dirty = false;
    try {
      await this.#send([
        ...extra,
        ...taken.map(({ p, records, next }) => ({
          topic: p.kind.state,
          records: [...records, ...this.#markers(p.kind, next)],
        })),
      ]);
    } catch (err) {
      for (const t of taken) t.p.records = [...t.records, ...t.p.records];
      this.#dirty = true;
      throw err;
    }
  }

  #markers(kind: CheckpointedKind, next: ReadonlyMap<number, bigint>): OutgoingRecord[] {
    const value = kind.marker();
    return Array.from({ length: kind.partitions }, (_, partition) => ({
      key: WATERMARK_KEY,
      value,
      partition,
      headers: { [EPOCH_HEADER]: this.#epoch, [HISTORY_NEXT_HEADER]: String(next.get(partition) ?? 0n) },
    }));
  }
}

/**
 * runCheckpoints flushes every intervalMs while records wait and every idleIntervalMs regardless, until stopped (a
 * last flush then); a failed flush is fatal when fenced (onFatal), else retried at the next interval (onRetry).
 */
export function runCheckpoints(
  checkpoints: StateCheckpoints,
  timing: CheckpointTiming,
  now: () => number,
  on: {
    readonly fenced: (err: unknown) => boolean;
    readonly onFatal: (err: unknown) => void;
    readonly onRetry: (err: unknown) => void;
  },
): { stop: () => Promise<void> } {
  let lastMs = now();
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const turn = async (): Promise<void> => {
    if (!checkpoints.dirty && now() - lastMs < timing.idleIntervalMs) return;
    try {
      await checkpoints.flush();
      lastMs = now();
    } catch (err) {
      if (on.fenced(err)) on.onFatal(err);
      else on.onRetry(err);
    }
  };
  const timer = setInterval(() => {
    if (!stopped) running = running.then(turn);
  }, timing.intervalMs);
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
      if (checkpoints.dirty) await turn();
    },
  };
}
