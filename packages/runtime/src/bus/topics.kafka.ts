import type { Kafka } from 'kafkajs';

/** TopicSpec is a topic kcm-bus creates when it is missing. */
export type TopicSpec = { readonly topic: string; readonly partitions: number; readonly configs: Readonly<Record<string, string>> };

/**
 * ensureTopics creates the topics that are missing, with their partition count and configs, and returns
 * each topic's actual partition count (an existing topic keeps the count it has).
 */
export async function ensureTopics(kafka: Kafka, specs: readonly TopicSpec[]): Promise<Map<string, number>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = specs.filter((s) => !existing.has(s.topic));
    if (missing.length > 0) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((s) => ({
          topic: s.topic, numPartitions: s.partitions, replicationFactor: -1,
          configEntries: Object.entries(s.configs).map(([name, value]) => ({ name, value })),
        })),
      }).catch((err: unknown) => {
        if (!String(err).includes('already exists')) throw err;
      });
    }
    const metadata = await admin.fetchTopicMetadata({ topics: specs.map((s) => s.topic) });
    return new Map(metadata.topics.map((t) => [t.name, t.partitions.length]));
  } finally {
    await admin.disconnect();
  }
}

/** compactedTopicConfigs keeps recent history whole for replay (the audit window) and compacts older history to state. */
export function compactedTopicConfigs(auditWindowMs: number): Record<string, string> {
  return { 'cleanup.policy': 'compact', 'min.compaction.lag.ms': String(auditWindowMs) };
}
