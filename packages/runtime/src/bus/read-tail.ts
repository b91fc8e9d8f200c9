import { randomUUID } from 'node:crypto';
import type { Bus, BusRecord, TopicPartition } from './bus.ts';

/**
 * readTail reads the last `count` offsets of every partition of the topics (records and transaction markers, so
 * fewer records where the watcher's transactions end), up to the high-water mark each had when the read began, in
 * order per partition. It reads in an ephemeral group, deleted afterwards, seeking each partition to its start.
 */
export async function readTail(bus: Pick<Bus, 'offsets' | 'joinGroup'>, topics: readonly string[], count: number,
  onRecord: (record: BusRecord, tp: TopicPartition) => Promise<void> | void): Promise<void> {
  const id = (tp: TopicPartition): string => `${tp.topic}/${tp.partition}`;
  const starts = new Map<string, bigint>();
  const ends = new Map<string, bigint>();
  for (const topic of topics) {
    for (const p of await bus.offsets(topic)) {
      const [low, high] = [BigInt(p.low), BigInt(p.high)];
      if (high <= low) continue;
      starts.set(id(p), high - BigInt(count) > low ? high - BigInt(count) : low);
      ends.set(id(p), high);
    }
  }
  if (ends.size === 0) return;
  const { promise: done, resolve, reject } = Promise.withResolvers<void>();
  const member = await bus.joinGroup({
    groupId: `kcm-bus-read-${randomUUID()}`, topics: [...topics], fromBeginning: true, ephemeral: true,
    startAt: (tp) => starts.get(id(tp))?.toString(),
    onBatch: async (batch) => {
      const tp = { topic: batch.topic, partition: batch.partition };
      const end = ends.get(id(tp)) ?? 0n;
      for (const record of batch.records) if (BigInt(record.offset) < end) await onRecord(record, tp);
    },
    onProgress: (tp, lastOffset) => {
      const end = ends.get(id(tp));
      if (end !== undefined && BigInt(lastOffset) >= end - 1n) ends.delete(id(tp));
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
