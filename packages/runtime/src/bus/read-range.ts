import { randomUUID } from 'node:crypto';
import type { Bus, BusRecord, GroupOptions, TopicPartition } from './bus.ts';

/** Range says what readRange reads: each partition up to (not including) its end, from its start or the beginning. */
export type Range = {
  readonly topics: readonly string[];
  /** ends: per `topic/partition`, the offset to stop before (the high-water mark when the read began). */
  readonly ends: ReadonlyMap<string, bigint>;
  /** startAt: per partition the first offset to read (undefined: the beginning). */
  readonly startAt?: GroupOptions['startAt'];
  /** partitions: only these partition numbers are assigned (GroupOptions.partitions). */
  readonly partitions?: readonly number[] | undefined;
};

/** partitionId names a topic partition in a Range's ends. */
export function partitionId(tp: TopicPartition): string {
  return `${tp.topic}/${tp.partition}`;
}

/**
 * RANGE_MAX_WAIT_MS is how long a range reader's fetch waits for records that are not there. The read ends when every
 * partition reached its end, and the member's stop waits for its fetches then in flight (kafkajs fetches from each
 * broker on its own, so on several brokers some are always waiting): at kafkajs's 5 s a read took up to 5 s more
 * than its records, and a watcher's restart on the three-node cluster 21 s from its kill to its start, 11 s with
 * this wait. While records are there a fetch returns at once, whatever its wait.
 */
export const RANGE_MAX_WAIT_MS = 100;

/**
 * readRange reads the records of each partition of the range in order and returns once every partition reached
 * its end (batches of transaction markers count: a watcher topic ends with a commit marker). It reads in an
 * ephemeral group, deleted afterwards, as a consumer without manual assignment must; records at or past a
 * partition's end are not handed over.
 */
export async function readRange(
  bus: Pick<Bus, 'joinGroup'>,
  range: Range,
  onRecord: (record: BusRecord, tp: TopicPartition) => Promise<void> | void,
): Promise<void> {
  const ends = new Map(range.ends);
  if (ends.size === 0) return;
  const { promise: done, resolve, reject } = Promise.withResolvers<void>();
  const member = await bus.joinGroup({
    groupId: `kcm-bus-read-${randomUUID()}`,
    topics: [...range.topics],
    fromBeginning: true,
    ephemeral: true,
    maxWaitMs: RANGE_MAX_WAIT_MS,
    ...(range.startAt ? { startAt: range.startAt } : {}),
    ...(range.partitions ? { partitions: range.partitions } : {}),
    onBatch: async (batch) => {
      const end = range.ends.get(partitionId(batch)) ?? 0n;
      for (const record of batch.records)
        if (BigInt(record.offset) < end) await onRecord(record, { topic: batch.topic, partition: batch.partition });
    },
    onProgress: (tp, lastOffset) => {
      const end = ends.get(partitionId(tp));
      if (end !== undefined && BigInt(lastOffset) >= end - 1n) ends.delete(partitionId(tp));
      if (ends.size === 0) resolve();
    },
    onCrash: (err) => reject(err),
  });
  try {
    await done;
  } finally {
    await member.stop();
  }
}
