import type { BusBatch, TopicPartition } from '../bus/bus.ts';
import { RecordGuard } from '../faults/record-guard.ts';
import type { ControllerGroupOptions, GroupPart } from './controller-group-options.ts';
import type { GroupPublisher } from './group-publisher.ts';
import type { InputReader } from './input-reader.ts';
import { type Dispatch, dispatchInput, dispatchResult } from './part-dispatch.ts';
import { ResultsPositions } from './results-positions.ts';
import { Watermarks } from './watermarks.ts';

/** StaleEpochError refuses a history record of an older watcher epoch than its partition's newest (StateHandoff.admit). */
export class StaleEpochError extends Error {}

type IntakeOptions = Pick<ControllerGroupOptions, 'resultsTopic' | 'results' | 'onDeadLetter' | 'onDivergence' | 'log'>;

/**
 * RecordIntake hands every record a member consumed to its controllers, in order: an input record to the parts that
 * read its input (and to its partition's inventory and watermark), a result to every part; what the reader refuses,
 * or what cannot be handled, goes to the dead-letter topic through the RecordGuard, and a transient fault is retried.
 * A result is live when it came after the assignment (at or past the high-water mark seen then).
 */
export class RecordIntake {
  readonly #o: IntakeOptions;
  readonly #parts: readonly GroupPart[];
  readonly #guard: RecordGuard;
  readonly watermarks = new Watermarks();
  /** #resultsLiveFrom: per assigned results partition, the first offset of a live result (the high-water mark on assignment). */
  readonly #resultsLiveFrom = new Map<number, bigint>();
  /** #resultsPositions: where a join reads each results partition on from. */
  readonly #resultsPositions = new ResultsPositions();

  constructor(o: IntakeOptions, parts: readonly GroupPart[], publisher: GroupPublisher) {
    this.#o = o;
    this.#parts = parts;
    this.#guard = new RecordGuard({
      deadLetter: (source, record, reason) => publisher.deadLetter(source, record, reason),
      counted: (source) => o.onDeadLetter(source.topic),
      log: o.log,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
  }

  /** fault names a transient fault being retried now, if any (/readyz). */
  fault(): string | undefined {
    return this.#guard.fault();
  }

  /** stop ends every retry loop at its next wait. */
  stop(): void {
    this.#guard.stop();
  }

  /**
   * resultsAssigned notes where each assigned results partition's live results begin (its high-water mark on
   * assignment), and keeps this member's own positions of those partitions (ResultsPositions).
   */
  resultsAssigned(partitions: readonly { readonly partition: number; readonly high: string }[]): void {
    for (const { partition, high } of partitions) this.#resultsLiveFrom.set(partition, BigInt(high));
    this.#resultsPositions.assigned(partitions.map((p) => p.partition));
  }

  /** resultsFrom is where a join reads the results partition on from: this member's next offset, or undefined. */
  resultsFrom(partition: number): string | undefined {
    return this.#resultsPositions.from(partition);
  }

  /**
   * consume handles a batch of one partition, record by record, and records how far the reader read it; its records'
   * own times count as the partition's watermark once it is applied (Watermarks.settle), or as far as it was.
   */
  async consume(reader: InputReader, batch: BusBatch, heartbeat: () => Promise<void>): Promise<void> {
    try {
      await this.#consume(reader, batch, heartbeat);
    } finally {
      this.watermarks.settle({ topic: reader.canonical(batch.topic), partition: batch.partition });
    }
  }

  async #consume(reader: InputReader, batch: BusBatch, heartbeat: () => Promise<void>): Promise<void> {
    const resultsLiveFrom =
      batch.topic === this.#o.resultsTopic ? (this.#resultsLiveFrom.get(batch.partition) ?? 0n) : undefined;
    const tp = { topic: batch.topic, partition: batch.partition };
    for (const record of batch.records) {
      const accepted = resultsLiveFrom === undefined ? reader.accept(tp, record) : 'apply';
      const live = resultsLiveFrom === undefined ? reader.sync.synced(tp) : BigInt(record.offset) >= resultsLiveFrom;
      // A refused record is dead-lettered with its reason, as a poison record is: visible, counted, and lost to no one.
      const dispatch = { tp, topic: reader.canonical(tp.topic), record, live };
      const handle =
        typeof accepted === 'object'
          ? () => Promise.reject(new StaleEpochError(accepted.refused))
          : () =>
              resultsLiveFrom === undefined
                ? this.#input(reader, dispatch)
                : dispatchResult(this.#parts, this.#o.results, dispatch);
      if (accepted !== 'skip') await this.#guard.handle({ ...tp, offset: record.offset }, record, handle, heartbeat);
      if (resultsLiveFrom !== undefined) this.#resultsPositions.read(tp.partition, record.offset);
      this.progress(reader, tp, record.offset);
      await heartbeat();
    }
  }

  /** progress records how far a partition was read (a batch's last offset too), logging when it synced. */
  progress(reader: InputReader, tp: TopicPartition, offset: string): void {
    if (reader.progress(tp, offset)) this.#o.log.info('partition synced', { ...tp, offset });
  }

  /**
   * #input hands an input record to the parts and counts it in its partition's inventory: a view that stops agreeing
   * with the watcher's (a record lost or kept that should not have been) is counted and logged.
   */
  async #input(reader: InputReader, d: Dispatch): Promise<void> {
    const disagreement = reader.counted(d.tp, d.record, await dispatchInput(this.#parts, this.watermarks, d));
    if (disagreement === undefined) return;
    this.#o.onDivergence(disagreement.topic);
    this.#o.log.error(
      "this member's objects of an input partition differ from what the watcher published up to the same record",
      { ...disagreement, remedy: 'restart the member: it restores the partition from the state topic' },
    );
  }
}
