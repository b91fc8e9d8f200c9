import type { Bus, BusRecord, TopicPartition } from './bus.ts';
import { partitionId, readRange } from './read-range.ts';

/**
 * readTail reads the last `count` offsets of every partition of the topics (records and transaction markers, so
 * fewer records where the watcher's transactions end), up to the high-water mark each had when the read began, in
 * order per partition (readRange, each partition sought to its start).
 */
export async function readTail(
  bus: Pick<Bus, 'offsets' | 'joinGroup'>,
  topics: readonly string[],
  count: number,
  onRecord: (record: BusRecord, tp: TopicPartition) => Promise<void> | void,
): Promise<void> {
  const starts = new Map<string, bigint>();
  const ends = new Map<string, bigint>();
  for (const topic of topics) {
    for (const p of await bus.offsets(topic)) {
      const [low, high] = [BigInt(p.low), BigInt(p.high)];
      if (high <= low) continue;
      starts.set(partitionId(p), high - BigInt(count) > low ? high - BigInt(count) : low);
      ends.set(partitionId(p), high);
    }
  }
  await readRange(bus, { topics, ends, startAt: (tp) => starts.get(partitionId(tp))?.toString() }, onRecord);
}
