import { randomUUID } from 'node:crypto';
import type { Bus, BusRecord, PartitionOffsets } from './bus.ts';

/**
 * readToEnd reads every committed record of a topic from the beginning up to the end it has now, in order per
 * partition, and returns once every partition reached the high-water mark it had when the read began (batches of
 * transaction markers count: a watcher topic ends with a commit marker). It reads in an ephemeral group, deleted
 * afterwards, as a consumer without manual assignment must. With partitions, only those are assigned and read.
 */
export async function readToEnd(bus: Pick<Bus, 'offsets' | 'joinGroup'>, topic: string,
  onRecord: (record: BusRecord, partition: number) => Promise<void> | void, partitions?: readonly number[]): Promise<void> {
  const wanted = (p: PartitionOffsets): boolean => BigInt(p.high) > BigInt(p.low) && (partitions === undefined || partitions.includes(p.partition));
  const ends = new Map((await bus.offsets(topic)).filter(wanted).map((p) => [p.partition, BigInt(p.high)]));
  if (ends.size === 0) return;
  const { promise: done, resolve, reject } = Promise.withResolvers<void>();
  const member = await bus.joinGroup({
    groupId: `kcm-bus-read-${randomUUID()}`, topics: [topic], fromBeginning: true, ephemeral: true, ...(partitions ? { partitions } : {}),
    onBatch: async (batch) => {
      for (const record of batch.records) await onRecord(record, batch.partition);
    },
    onProgress: ({ partition }, lastOffset) => {
      const end = ends.get(partition);
      if (end !== undefined && BigInt(lastOffset) >= end - 1n) ends.delete(partition);
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
