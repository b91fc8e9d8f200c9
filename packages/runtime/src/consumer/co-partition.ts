/** GroupMember is a consumer-group member as the group leader sees it: its id and the topics it subscribes to. */
export type GroupMember = { readonly id: string; readonly topics: readonly string[] };

/** TopicAssignment is one member's share: topic → the partition numbers it consumes. */
export type TopicAssignment = Readonly<Record<string, readonly number[]>>;

/**
 * CoPartitionInput is what the group leader knows when it assigns: the members, each subscribed topic's partition
 * count, and the global topics, which every member reads whole outside the group and which are never assigned.
 */
export type CoPartitionInput = {
  readonly members: readonly GroupMember[];
  readonly partitionCounts: ReadonlyMap<string, number>;
  readonly globalTopics: ReadonlySet<string>;
};

/** CoPartitionError says why no co-partitioned assignment exists (the group must not consume until it is fixed). */
export class CoPartitionError extends Error {}

/**
 * coPartitionAssign gives each partition number of every co-partitioned topic to one member, the same member for
 * every topic, so one member sees a namespace's pods and controllers together (Kafka Streams' co-partitioning).
 * Partition numbers are split into contiguous ranges over the members sorted by id (Kafka's RangeAssignor, applied
 * to partition numbers instead of per topic): the result depends only on the input, never on member order. Only
 * members subscribed to every co-partitioned topic get partitions (during a rolling change of inputs the others
 * idle). Every member appears in the result, with {} when it gets nothing.
 */
export function coPartitionAssign(input: CoPartitionInput): ReadonlyMap<string, TopicAssignment> {
  const topics = [...new Set(input.members.flatMap((m) => m.topics))].filter((t) => !input.globalTopics.has(t)).sort();
  const members = [...input.members].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const result = new Map<string, TopicAssignment>(members.map((m) => [m.id, {}]));
  if (topics.length === 0) return result;
  const partitions = commonPartitionCount(topics, input.partitionCounts);
  const eligible = members.filter((m) => topics.every((t) => m.topics.includes(t)));
  if (eligible.length === 0) {
    throw new CoPartitionError(
      `no member subscribes to every co-partitioned topic (${topics.join(', ')}); members: ` +
        members.map((m) => `${m.id} [${m.topics.join(', ')}]`).join('; '),
    );
  }
  eligible.forEach((member, index) => {
    const numbers = rangeFor(index, eligible.length, partitions);
    if (numbers.length > 0) result.set(member.id, Object.fromEntries(topics.map((t) => [t, numbers])));
  });
  return result;
}

/**
 * commonPartitionCount is the partition count every co-partitioned topic shares; unequal counts (or a topic without
 * metadata) mean keys of one namespace land on different partition numbers, so it fails naming every count.
 */
export function commonPartitionCount(topics: readonly string[], partitionCounts: ReadonlyMap<string, number>): number {
  const counts = topics.map((t) => [t, partitionCounts.get(t) ?? 0] as const);
  const missing = counts.filter(([, n]) => !(n > 0)).map(([t]) => t);
  if (missing.length > 0) throw new CoPartitionError(`no partition metadata for topic(s) ${missing.join(', ')}`);
  if (new Set(counts.map(([, n]) => n)).size > 1) {
    throw new CoPartitionError(
      'co-partitioned topics must have the same number of partitions: ' +
        counts.map(([t, n]) => `${t} has ${n}`).join(', '),
    );
  }
  return counts[0]![1];
}

/**
 * rangeFor is the contiguous block of partition numbers of the member at index among count members: the first
 * (partitions % count) members get one extra. Mirrors Kafka's RangeAssignor.assign.
 */
export function rangeFor(index: number, count: number, partitions: number): readonly number[] {
  const per = Math.floor(partitions / count);
  const extra = partitions % count;
  const start = index * per + Math.min(index, extra);
  const length = per + (index < extra ? 1 : 0);
  return Array.from({ length }, (_, i) => start + i);
}
