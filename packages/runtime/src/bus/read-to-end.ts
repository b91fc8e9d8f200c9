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
  const ends = await endsNow(bus, [topic], partitions);
  await readRange(bus, { topics: [topic], ends, partitions }, (record, tp) => onRecord(record, tp.partition));
}

/**
 * endsNow are a Range's ends for reading the topics to the end they have now: each partition that holds records
 * (with partitions, only those numbers), by partitionId, with its high-water mark.
 */
export async function endsNow(
  bus: Pick<Bus, 'offsets'>,
  topics: readonly string[],
  partitions?: readonly number[],
): Promise<Map<string, bigint>> {
  const wanted = (p: PartitionOffsets): boolean =>
    BigInt(p.high) > BigInt(p.low) && (partitions === undefined || partitions.includes(p.partition));
  const offsets = (await Promise.all(topics.map((t) => bus.offsets(t)))).flat();
  return new Map(offsets.filter(wanted).map((p) => [partitionId(p), BigInt(p.high)]));
}
