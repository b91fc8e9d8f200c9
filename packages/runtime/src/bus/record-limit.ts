/**
 * TOPIC_MAX_MESSAGE_BYTES is the max.message.bytes of the topics that carry API objects (history, state, mutations and
 * their dead letters): 4 MiB, past the largest object an apiserver stores (etcd's --max-request-bytes, 1.5 MiB by
 * default), which the 1 MiB default is not: an object over it would stall its kind's publication for good.
 * RECORD_LIMIT_CONFIG is the config that says it, spread into those topics' configs.
 */
export const TOPIC_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
export const RECORD_LIMIT_CONFIG: Readonly<Record<string, string>> = {
  'max.message.bytes': String(TOPIC_MAX_MESSAGE_BYTES),
};

/**
 * keptFor are the configs of a topic that carries API objects and deletes them once retentionMs old (a history topic,
 * the mutations, a dead-letter topic): never compacted, and a record as large as the largest object.
 */
export function keptFor(retentionMs: number): Record<string, string> {
  return { 'cleanup.policy': 'delete', 'retention.ms': String(retentionMs), ...RECORD_LIMIT_CONFIG };
}

/** MAX_RECORD_BYTES is the largest single record a publisher sends (alone in its request), under TOPIC_MAX_MESSAGE_BYTES. */
export const MAX_RECORD_BYTES = 4_000_000;

/**
 * topicConfigsToSet are the configs ensureTopics gives an existing topic: its own (an operator's), then kcm-bus's
 * over them, except that an own max.message.bytes larger than kcm-bus's stays (a record limit is raised, never
 * lowered).
 */
export function topicConfigsToSet(
  own: Readonly<Record<string, string>>,
  wanted: Readonly<Record<string, string>>,
): Record<string, string> {
  const merged = { ...own, ...wanted };
  const [ownLimit, wantedLimit] = [own['max.message.bytes'], wanted['max.message.bytes']];
  if (ownLimit !== undefined && wantedLimit !== undefined && Number(ownLimit) > Number(wantedLimit))
    merged['max.message.bytes'] = ownLimit;
  return merged;
}
