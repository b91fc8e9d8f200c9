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

/**
 * CheckpointTiming: how often a checkpoint goes out while records wait, at least how often when none do (so that a
 * fenced watcher finds out), and how often one marks every partition.
 */
export type CheckpointTiming = {
  readonly intervalMs: number;
  readonly idleIntervalMs: number;
  readonly fullIntervalMs: number;
};

/**
 * Marks are the partitions a checkpoint marks: `all` of every kind; `moved`, those its records are in (nothing is sent
 * when no record waits); `fence`, the same, or one marker when no record waits, so that the transaction still finds
 * out whether a newer watcher fenced this one.
 */
export type Marks = 'all' | 'moved' | 'fence';

/** Pending is a kind's part of the next checkpoint: the latest records of each key, the history's next offsets. */
type Pending = {
  readonly kind: CheckpointedKind;
  latest: Map<string, readonly OutgoingRecord[]>;
  readonly next: Map<number, bigint>;
};

/**
 * StateCheckpoints write the state topics: what the history topics took since the last checkpoint, once it is
 * acknowledged there, and a marker (a watermark record under WATERMARK_KEY) that names the first history offset the
 * state does not hold yet (HISTORY_NEXT_HEADER), all in one transaction. A checkpoint holds the latest record of each
 * key only (a Deleted with its tombstone): a restore keeps the last record of a key, and a pod's three events within a
 * second were three copies in the state. A checkpoint marks the partitions its records are in (Marks); a full one
 * (the first, then one per full interval) marks every partition of every kind, so that the history tail a restore
 * reads past a marker is at most a full interval of watermarks where nothing changed. A member restores from a state
 * topic, then reads its history from the markers on: the state stays about one record per live object, written at
 * most once per interval however many changes came, and no zombie can write it (its transactions are fenced). Some
 * checkpoint goes out at least once per idle interval, so a watcher a newer one fenced finds out and exits within it.
 */
export class StateCheckpoints {
  readonly #send: (batches: readonly TopicRecords[]) => Promise<unknown>;
  readonly #epoch: string;
  readonly #kinds = new Map<string, Pending>();

  constructor(send: (batches: readonly TopicRecords[]) => Promise<unknown>, epoch: string) {
    this.#send = send;
    this.#epoch = epoch;
  }

  /** register adds a kind whose history is known complete up to next (per partition; absent: offset 0). */
  register(kind: CheckpointedKind, next: ReadonlyMap<number, bigint>): void {
    this.#kinds.set(kind.state, { kind, latest: new Map(), next: new Map(next) });
  }

  /**
   * add queues a kind's state records for the next checkpoint, with the history offsets their records took: a record
   * replaces what waits for its key, a tombstone follows the Deleted it comes after. Only records make it dirty: a
   * history that took watermarks alone is marked by the next full checkpoint.
   */
  add(state: string, records: readonly OutgoingRecord[], produced: ProducedOffsets): void {
    const pending = this.#kinds.get(state);
    if (pending === undefined) throw new Error(`no checkpointed kind has the state topic ${state}`);
    for (const r of records) {
      const prior = r.value === null ? (pending.latest.get(r.key) ?? []) : [];
      pending.latest.delete(r.key);
      pending.latest.set(r.key, [...prior, r]);
    }
    for (const o of produced)
      if (o.topic === pending.kind.history) pending.next.set(o.partition, BigInt(o.lastOffset) + 1n);
  }

  /** dirty tells whether records wait for a checkpoint. */
  get dirty(): boolean {
    return [...this.#kinds.values()].some((p) => p.latest.size > 0);
  }

  /**
   * flush writes one checkpoint (and `extra`, such as a new watcher's fence, in the same transaction), its markers in
   * the partitions `marks` says. What it took is put back if the transaction fails, behind what came meanwhile for the
   * same keys, and the failure is the caller's.
   */
  async flush(extra: readonly TopicRecords[] = [], marks: Marks = 'all'): Promise<void> {
    const taken = [...this.#kinds.values()].map((p) => ({ p, latest: p.latest, next: new Map(p.next) }));
    for (const t of taken) t.p.latest = new Map();
    const batches = taken
      .map(({ p, latest, next }) => ({ topic: p.kind.state, records: this.#checkpoint(p.kind, latest, next, marks) }))
      .filter((b) => b.records.length > 0);
    const first = taken[0];
    if (marks === 'fence' && batches.length === 0 && first !== undefined)
      batches.push({ topic: first.p.kind.state, records: this.#markers(first.p.kind, first.next, [0]) });
    if (extra.length === 0 && batches.length === 0) return;
    try {
      await this.#send([...extra, ...batches]);
    } catch (err) {
      for (const t of taken) t.p.latest = new Map([...t.latest, ...t.p.latest]);
      throw err;
    }
  }

  /** #checkpoint is a kind's part of a checkpoint: its keys' latest records, then the markers of their partitions. */
  #checkpoint(
    kind: CheckpointedKind,
    latest: ReadonlyMap<string, readonly OutgoingRecord[]>,
    next: ReadonlyMap<number, bigint>,
    marks: Marks,
  ): OutgoingRecord[] {
    const records = [...latest.values()].flat();
    const moved = new Set(records.map((r) => r.partition ?? 0));
    const marked = Array.from({ length: kind.partitions }, (_, p) => p).filter((p) => marks === 'all' || moved.has(p));
    return [...records, ...this.#markers(kind, next, marked)];
  }

  #markers(kind: CheckpointedKind, next: ReadonlyMap<number, bigint>, partitions: readonly number[]): OutgoingRecord[] {
    const value = kind.marker();
    return partitions.map((partition) => ({
      key: WATERMARK_KEY,
      value,
      partition,
      headers: { [EPOCH_HEADER]: this.#epoch, [HISTORY_NEXT_HEADER]: String(next.get(partition) ?? 0n) },
    }));
  }
}

/** marksDue are the marks of a checkpoint at `at`: all once a full interval passed, a fence once an idle one did. */
function marksDue(at: number, last: { fullMs: number; sentMs: number }, timing: CheckpointTiming): Marks {
  if (at - last.fullMs >= timing.fullIntervalMs) return 'all';
  return at - last.sentMs >= timing.idleIntervalMs ? 'fence' : 'moved';
}

/**
 * runCheckpoints flushes every intervalMs while records wait, a fence checkpoint when none went out for idleIntervalMs,
 * and a full one every fullIntervalMs (the caller wrote the first), until stopped (a last flush then); a failed flush
 * is fatal when fenced (onFatal), else retried at the next interval (onRetry).
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
  let [fullMs, sentMs] = [now(), now()];
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const turn = async (): Promise<void> => {
    const marks = marksDue(now(), { fullMs, sentMs }, timing);
    if (!checkpoints.dirty && marks === 'moved') return;
    try {
      await checkpoints.flush([], marks);
      sentMs = now();
      if (marks === 'all') fullMs = sentMs;
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
