import type { TopicPartition } from '../bus/bus.ts';

/** Offset is a Kafka offset as kafkajs gives it (a decimal string) or as a number or bigint. */
export type Offset = string | number | bigint;

type Target = { readonly highWaterMark: bigint; synced: boolean };

/**
 * CacheSync is the Kafka form of WaitForCacheSync: a partition is synced once the consumer has read up to the
 * high-water mark it saw when the partition was assigned (for a read_committed consumer, the last stable offset),
 * so its stores hold at least the state that existed then. Once synced it stays synced until revoked; a partition
 * assigned again must catch up again. Mirrors cache.WaitForCacheSync / HasSynced, per partition.
 */
export class CacheSync {
  readonly #targets = new Map<string, Map<number, Target>>();

  /**
   * assigned starts tracking a partition with the high-water mark seen on assignment; a partition whose high-water
   * mark is at or below its low-water mark (the first offset still in the log) is empty and synced at once.
   */
  assigned(tp: TopicPartition, highWaterMark: Offset, lowWaterMark: Offset = 0n): void {
    const highest = BigInt(highWaterMark);
    const partitions = this.#targets.get(tp.topic) ?? new Map<number, Target>();
    partitions.set(tp.partition, { highWaterMark: highest, synced: highest <= BigInt(lowWaterMark) });
    this.#targets.set(tp.topic, partitions);
  }

  /**
   * consumed records progress: offset is that of the last record applied, or kafkajs's batch.lastOffset(), which
   * also covers a trailing transaction marker. Batches of only markers or aborted records never reach eachBatch:
   * feed their lastOffset from the consumer's END_BATCH_PROCESS event, or a transactional topic never syncs.
   * A partition not assigned is ignored (a late batch after revocation). Returns true when this offset is the one
   * that made the partition synced.
   */
  consumed(tp: TopicPartition, offset: Offset): boolean {
    const target = this.#targets.get(tp.topic)?.get(tp.partition);
    if (!target || target.synced || BigInt(offset) < target.highWaterMark - 1n) return false;
    target.synced = true;
    return true;
  }

  /** revoked forgets a partition this member no longer owns. */
  revoked(tp: TopicPartition): void {
    const partitions = this.#targets.get(tp.topic);
    partitions?.delete(tp.partition);
    if (partitions?.size === 0) this.#targets.delete(tp.topic);
  }

  /** assignedPartitions lists every partition being tracked. */
  assignedPartitions(): readonly TopicPartition[] {
    return [...this.#targets].flatMap(([topic, partitions]) =>
      [...partitions.keys()].map((partition) => ({ topic, partition })),
    );
  }

  /** synced tells whether an assigned partition has synced; a partition not assigned is not synced. */
  synced(tp: TopicPartition): boolean {
    return this.#targets.get(tp.topic)?.get(tp.partition)?.synced ?? false;
  }

  /**
   * partitionSynced tells whether partition number n has synced on every topic it is assigned of: a
   * co-partitioned key may be reconciled only then. False when no topic's partition n is assigned.
   */
  partitionSynced(n: number): boolean {
    const targets = [...this.#targets.values()].flatMap((partitions) => partitions.get(n) ?? []);
    return targets.length > 0 && targets.every((t) => t.synced);
  }

  /** allSynced tells whether every assigned partition has synced (true when none is assigned, as client-go). */
  allSynced(): boolean {
    return this.unsynced().length === 0;
  }

  /** unsynced lists the assigned partitions still catching up (for /readyz and logs). */
  unsynced(): readonly TopicPartition[] {
    return [...this.#targets].flatMap(([topic, partitions]) =>
      [...partitions].filter(([, t]) => !t.synced).map(([partition]) => ({ topic, partition })),
    );
  }
}
