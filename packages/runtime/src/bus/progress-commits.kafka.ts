import type { Consumer } from 'kafkajs';
import type { TopicPartition } from './bus.ts';

/**
 * PROGRESS_COMMIT_DELAY_MS is how long progress waits to be committed, gathering the batches of that while into one
 * commit: a synced member shows lag 0 but for that moment after each batch, where a commit every few seconds (the
 * Java client's auto-commit) would always trail the watermarks each partition gets every second or few.
 */
const PROGRESS_COMMIT_DELAY_MS = 200;

/** Position is the next offset to read of one partition, as a commit carries it. */
type Position = { readonly topic: string; readonly partition: number; readonly offset: string };

/**
 * commitProgress commits, shortly after the consumer finished batches, the offset after the last one of each
 * partition (transaction markers included), as auto-commit would. A join forgets what was not committed yet (those
 * partitions may be another member's now); a failed commit (a rebalance under way) is dropped, the next batch brings
 * a newer position. Only the partitions `committed` says true of are committed. It returns the function that commits
 * what is pending and stops.
 */
export function commitProgress(consumer: Consumer, committed: (tp: TopicPartition) => boolean): () => Promise<void> {
  const pending = new Map<string, Position>();
  let timer: NodeJS.Timeout | undefined;
  const flush = async (): Promise<void> => {
    timer = undefined;
    const offsets = [...pending.values()];
    pending.clear();
    if (offsets.length > 0) await consumer.commitOffsets(offsets).catch(() => undefined);
  };
  consumer.on(consumer.events.GROUP_JOIN, () => pending.clear());
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload: p }) => {
    if (!committed(p)) return;
    pending.set(`${p.topic}/${p.partition}`, {
      topic: p.topic,
      partition: p.partition,
      offset: String(BigInt(p.lastOffset) + 1n),
    });
    timer ??= setTimeout(() => void flush(), PROGRESS_COMMIT_DELAY_MS);
  });
  return async () => {
    clearTimeout(timer);
    await flush();
  };
}
