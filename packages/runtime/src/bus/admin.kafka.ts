import kafkajs, { AssignerProtocol, type Admin, type Kafka } from 'kafkajs';

/** TOPIC is kafkajs's ConfigResourceTypes.TOPIC, read from the default export: Node sees no such named export of the CommonJS module. */
const TOPIC = kafkajs.ConfigResourceTypes.TOPIC;
/** TOPIC_CONFIG is ConfigSource.TOPIC_CONFIG: a config set on the topic itself. */
const TOPIC_CONFIG = kafkajs.ConfigSource.TOPIC_CONFIG;
import { causeChain } from '../faults/record-fault.ts';
import { topicConfigsToSet } from './record-limit.ts';
import type { GroupOffsets, PartitionOffsets, PartitionReplicas, TopicPartition, TopicSpec } from './bus.ts';

/** withAdmin runs fn with a connected admin client and disconnects it afterwards. */
async function withAdmin<T>(kafka: Kafka, fn: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.disconnect();
  }
}

/**
 * ensureTopics creates the topics that are missing, with their partition count and configs, sets the configs of
 * those that exist, and returns each topic's actual partition count (an existing topic keeps the count it has).
 * AlterConfigs (kafkajs has no incremental form) replaces a topic's own configs with those it is given, so a topic's
 * own configs the spec does not name are given back with it: an operator's min.insync.replicas or retention set on
 * the topic (a Strimzi KafkaTopic's) stays, and so does a record limit larger than kcm-bus's (topicConfigsToSet).
 */
export function ensureTopics(kafka: Kafka, specs: readonly TopicSpec[]): Promise<Map<string, number>> {
  return withAdmin(kafka, async (admin) => {
    const existing = new Set(await admin.listTopics());
    const missing = specs.filter((s) => !existing.has(s.topic));
    if (missing.length > 0) {
      await admin
        .createTopics({
          waitForLeaders: true,
          topics: missing.map((s) => ({
            topic: s.topic,
            numPartitions: s.partitions,
            replicationFactor: -1,
            configEntries: Object.entries(s.configs).map(([name, value]) => ({ name, value })),
          })),
        })
        .catch((err: unknown) => {
          // A topic just created may be unknown to the metadata kafkajs polls for its leaders (Kafka 4 answers
          // UNKNOWN_TOPIC_OR_PARTITION for a moment, which kafkajs does not retry there): awaited below instead.
          if (!String(err).includes('already exists') && !unknownTopic(err)) throw err;
        });
    }
    const present = specs.filter((s) => existing.has(s.topic) && Object.keys(s.configs).length > 0);
    if (present.length > 0) {
      const own = await ownConfigs(
        admin,
        present.map((s) => s.topic),
      );
      await admin.alterConfigs({
        validateOnly: false,
        resources: present.map((s) => ({
          type: TOPIC,
          name: s.topic,
          configEntries: Object.entries(topicConfigsToSet(own.get(s.topic) ?? {}, s.configs)).map(([name, value]) => ({
            name,
            value,
          })),
        })),
      });
    }
    const metadata = await whileUnknown(() => admin.fetchTopicMetadata({ topics: specs.map((s) => s.topic) }));
    return new Map(metadata.topics.map((t) => [t.name, t.partitions.length]));
  });
}

/** ownConfigs are the configs set on each topic itself (not the broker's defaults), sensitive ones left out. */
async function ownConfigs(admin: Admin, topics: readonly string[]): Promise<Map<string, Record<string, string>>> {
  const described = await admin.describeConfigs({
    includeSynonyms: false,
    resources: topics.map((name) => ({ type: TOPIC, name })),
  });
  return new Map(
    described.resources.map((r) => [
      r.resourceName,
      Object.fromEntries(
        r.configEntries
          .filter((e) => e.configSource === TOPIC_CONFIG && !e.isSensitive)
          .map((e) => [e.configName, e.configValue]),
      ),
    ]),
  );
}

/** unknownTopic tells the broker's UNKNOWN_TOPIC_OR_PARTITION ("This server does not host this topic-partition"). */
function unknownTopic(err: unknown): boolean {
  return causeChain(err).some(
    (e) =>
      (e as { type?: unknown }).type === 'UNKNOWN_TOPIC_OR_PARTITION' ||
      e.message.includes('does not host this topic-partition'),
  );
}

/** whileUnknown calls fn again while it fails with UNKNOWN_TOPIC_OR_PARTITION, 200 ms apart, for 30 s at most. */
async function whileUnknown<T>(fn: () => Promise<T>): Promise<T> {
  for (let waited = 0; ; waited += 200) {
    try {
      return await fn();
    } catch (err) {
      if (!unknownTopic(err) || waited >= 30_000) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** topicConfigs describes a topic's configs (every entry, defaults included). */
export function topicConfigs(kafka: Kafka, topic: string): Promise<Record<string, string>> {
  return withAdmin(kafka, async (admin) => {
    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: TOPIC, name: topic }],
    });
    return Object.fromEntries((described.resources[0]?.configEntries ?? []).map((e) => [e.configName, e.configValue]));
  });
}

/** partitionCount is an existing topic's partition count; it fails naming the topic when the topic does not exist. */
export function partitionCount(kafka: Kafka, topic: string): Promise<number> {
  return withAdmin(kafka, async (admin) => {
    const exists = (await admin.listTopics()).includes(topic);
    const n = exists ? ((await admin.fetchTopicMetadata({ topics: [topic] })).topics[0]?.partitions.length ?? 0) : 0;
    if (n === 0) throw new Error(`topic ${topic} does not exist`);
    return n;
  });
}

/** partitionReplicas are the leader, replicas and in-sync replicas of every partition of the topics. */
export function partitionReplicas(kafka: Kafka, topics: readonly string[]): Promise<PartitionReplicas[]> {
  return withAdmin(kafka, async (admin) =>
    (await admin.fetchTopicMetadata({ topics: [...topics] })).topics.flatMap((t) =>
      t.partitions.map((p) => ({
        topic: t.name,
        partition: p.partitionId,
        leader: p.leader,
        replicas: p.replicas,
        isr: p.isr,
      })),
    ),
  );
}

/**
 * partitionOffsets are the low and high-water marks of every partition of the topics, read with one admin client
 * (read_committed: the high mark is the last stable offset).
 */
export function partitionOffsets(kafka: Kafka, topics: readonly string[]): Promise<PartitionOffsets[]> {
  return withAdmin(kafka, async (admin) => {
    const offsets: PartitionOffsets[] = [];
    for (const topic of topics) {
      for (const p of await admin.fetchTopicOffsets(topic))
        offsets.push({ topic, partition: p.partition, low: p.low, high: p.high });
    }
    return offsets;
  });
}

/** listTopics are the names of every topic of the cluster. */
export function listTopics(kafka: Kafka): Promise<readonly string[]> {
  return withAdmin(kafka, (admin) => admin.listTopics());
}

/** deleteTopics deletes topics. */
export function deleteTopics(kafka: Kafka, topics: readonly string[]): Promise<void> {
  return withAdmin(kafka, (admin) => admin.deleteTopics({ topics: [...topics] }));
}

/** deleteGroup deletes an ephemeral consumer group once its member left; a failure only leaves it to expire. */
export function deleteGroup(kafka: Kafka, groupId: string): Promise<void> {
  return withAdmin(kafka, async (admin) => {
    await admin.deleteGroups([groupId]);
  }).catch(() => undefined);
}

/**
 * groupOffsets lists the consumer groups with their state, member count, and each partition a member is assigned
 * (decoded from describeGroups) or the group committed on (fetchOffsets), as kafka-consumer-groups.sh --describe does.
 */
export function groupOffsets(kafka: Kafka): Promise<GroupOffsets[]> {
  return withAdmin(kafka, async (admin) => {
    const ids = (await admin.listGroups()).groups.filter((g) => g.protocolType === 'consumer').map((g) => g.groupId);
    if (ids.length === 0) return [];
    const result: GroupOffsets[] = [];
    for (const g of (await admin.describeGroups(ids)).groups) {
      const partitions = new Map<string, TopicPartition & { committed: string | undefined }>();
      for (const m of g.members) {
        const assignment = AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.assignment ?? {};
        for (const [topic, ps] of Object.entries(assignment))
          for (const p of ps) partitions.set(`${topic}/${p}`, { topic, partition: p, committed: undefined });
      }
      for (const { topic, partitions: ps } of await admin.fetchOffsets({ groupId: g.groupId })) {
        for (const p of ps)
          if (BigInt(p.offset) >= 0n)
            partitions.set(`${topic}/${p.partition}`, { topic, partition: p.partition, committed: p.offset });
      }
      result.push({
        groupId: g.groupId,
        state: g.state,
        members: g.members.length,
        partitions: [...partitions.values()],
      });
    }
    return result;
  });
}
