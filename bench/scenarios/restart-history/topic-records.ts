import type { Bus } from '@kcm-bus/runtime/bus/index.ts';
import { stateTopic, watchTopic } from '@kcm-bus/schemas/kinds.ts';
import { isWatermarkKey } from '@kcm-bus/schemas/watch-record.ts';

/** POD_TOPICS are the pods' history topic (every record of the audit window) and state topic (compacted). */
export const POD_TOPICS = { history: watchTopic({ plural: 'pods' }), state: stateTopic({ plural: 'pods' }) };

/**
 * TopicRecords count what one watch topic holds now, as a consumer reading it from the beginning gets it (offsets
 * would not do: compaction removes records, not offsets): object records (Deleted records and tombstones
 * included), watermarks, distinct object keys, and keys whose last record is not a tombstone.
 */
export type TopicRecords = {
  readonly objects: number;
  readonly watermarks: number;
  readonly keys: number;
  readonly live: number;
};

/** PodRecords are both pods topics' counts, read one after the other. */
export type PodRecords = { readonly history: TopicRecords; readonly state: TopicRecords };

/** topicRecords reads a watch topic to its current end and counts its records. */
export async function topicRecords(bus: Bus, topic: string): Promise<TopicRecords> {
  let objects = 0,
    watermarks = 0;
  const last = new Map<string, boolean>();
  await bus.readToEnd(topic, (record) => {
    const key = record.key?.toString() ?? '';
    if (isWatermarkKey(key)) {
      watermarks++;
      return;
    }
    objects++;
    last.set(key, record.value !== null);
  });
  return { objects, watermarks, keys: last.size, live: [...last.values()].filter(Boolean).length };
}

/** podRecords counts kcm.watch.pods and kcm.state.pods. */
export async function podRecords(bus: Bus): Promise<PodRecords> {
  return { history: await topicRecords(bus, POD_TOPICS.history), state: await topicRecords(bus, POD_TOPICS.state) };
}
