import type { Bus, BusRecord, PartitionOffsets } from './bus.ts';
import { partitionId, readRange } from './read-range.ts';

/**
 * readToEnd reads every committed record of a topic from the beginning up to the end it has now, in order per
 * partition, and returns once every partition reached the high-water mark it had when the read began (readRange).
 * With partitions, only those are assigned and read.
 */
export async function readToEnd(
  bus: Pick<Bus, 'offsets' | 'joinGroup'>,
  topic: string,
  onRecord: (record: BusRecord, partition: number) => Promise<void> | void,
  partitions?: readonly number[],
): Promise<void> {
  const wanted = (p: PartitionOffsets): boolean =>
    BigInt(p.high) > BigInt(p.low) && (partitions === undefined || partitions.includes(p.partition));
  const ends = new Map((await bus.offsets(topic)).filter(wanted).map((p) => [partitionId(p), BigInt(p.high)]));
  await readRange(bus, { topics: [topic], ends, partitions }, (record, tp) => onRecord(record, tp.partition));
}
