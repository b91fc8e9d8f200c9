import type { Bus } from '@kcm-bus/runtime/bus/index.ts';

/** TopicCounts are counts by topic name. */
export type TopicCounts = Readonly<Record<string, number>>;

/** TopicMeter gives how far each kcm-bus topic's offsets moved since it started. */
export type TopicMeter = { readonly read: () => Promise<TopicCounts> };

/** highWaterMarks are the sums of every partition's high-water mark (the last stable offset), by kcm-bus topic. */
async function highWaterMarks(bus: Bus): Promise<Map<string, number>> {
  const marks = new Map<string, number>();
  for (const topic of (await bus.topics()).filter((t) => t.startsWith('kcm.'))) {
    marks.set(
      topic,
      (await bus.offsets(topic)).reduce((sum, p) => sum + Number(p.high), 0),
    );
  }
  return marks;
}

/** advance is each topic's offsets gained between two readings, the topics that gained none left out. */
export function advance(start: ReadonlyMap<string, number>, now: ReadonlyMap<string, number>): TopicCounts {
  const moved = [...now].map(([topic, high]): [string, number] => [topic, high - (start.get(topic) ?? 0)]);
  return Object.fromEntries(moved.filter(([, n]) => n > 0));
}

/**
 * topicMeter starts counting the offsets the kcm-bus topics (kcm.*) gain: the records produced to each, and the
 * transaction markers among them (a transaction's commit takes one offset in each partition it wrote).
 */
export async function topicMeter(bus: Bus): Promise<TopicMeter> {
  const start = await highWaterMarks(bus);
  return { read: async () => advance(start, await highWaterMarks(bus)) };
}
