/*
 * The bus port: everything kcm-bus asks of Kafka, in its own words. Services, tools and the runtime's controller
 * group program against these types; only the adapter (bus/*.kafka.ts) knows the client library, so a move to
 * another client (one that speaks KIP-848's consumer group protocol, which kafkajs does not) touches that folder alone.
 */
import { causeChain } from '../faults/record-fault.ts';
import { keptFor, RECORD_LIMIT_CONFIG } from './record-limit.ts';

/** TopicPartition names one partition of one topic. */
export type TopicPartition = { readonly topic: string; readonly partition: number };

/** PartitionOffsets are a partition's low-water mark (first offset still in the log) and high-water mark (next offset). */
export type PartitionOffsets = TopicPartition & { readonly low: string; readonly high: string };

/** BusRecord is one consumed record: key and value as bytes (null value: a tombstone), offset as a decimal string. */
export type BusRecord = {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly offset: string;
  /** timestamp is the record's Kafka timestamp in epoch milliseconds, as a decimal string. */
  readonly timestamp: string;
  readonly headers: Readonly<Record<string, string>>;
};

/** BusBatch is consecutive records of one partition; lastOffset also covers trailing transaction markers. */
export type BusBatch = TopicPartition & { readonly records: readonly BusRecord[]; readonly lastOffset: string };

/** OutgoingRecord is a record to produce: without a partition it is placed by the namespace partitioner. */
export type OutgoingRecord = {
  readonly key: string;
  readonly value: Buffer | null;
  readonly partition?: number;
  readonly headers?: Readonly<Record<string, string>>;
};

/**
 * ProducedOffsets are, per partition a send wrote to, the offset of the last record it wrote there. A publisher
 * knows them only for records that name their partition (a partitioner's choice is the client's): the others'
 * partitions are left out.
 */
export type ProducedOffsets = readonly (TopicPartition & { readonly lastOffset: string })[];

/** Publisher produces records with acks=all; send resolves once every record is acknowledged. */
export interface Publisher {
  send(topic: string, records: readonly OutgoingRecord[]): Promise<ProducedOffsets>;
  /** sendTopics produces to several topics in one request. */
  sendTopics(
    batches: readonly { readonly topic: string; readonly records: readonly OutgoingRecord[] }[],
  ): Promise<ProducedOffsets>;
  close(): Promise<void>;
}

/**
 * TransactionalPublisher produces each send as one Kafka transaction under a fixed transactional id: opening it
 * fences any older publisher of the same id, whose next send then fails with a PublisherFencedError. Any other
 * failed send (the broker unreachable or restarting) leaves nothing of its transaction visible, and the next send
 * begins on a fresh producer session: the caller may send the same records again.
 */
export interface TransactionalPublisher {
  send(topic: string, records: readonly OutgoingRecord[]): Promise<ProducedOffsets>;
  /** sendTopics produces to several topics in one transaction: all of it is visible to read_committed readers, or none. */
  sendTopics(
    batches: readonly { readonly topic: string; readonly records: readonly OutgoingRecord[] }[],
  ): Promise<ProducedOffsets>;
  close(): Promise<void>;
}

/** PublisherFencedError is a transactional send refused because a newer publisher of the same id took over: final. */
export class PublisherFencedError extends Error {}

/** publisherFenced tells whether a failed transactional send (or an error wrapping it) was fenced. */
export function publisherFenced(err: unknown): boolean {
  return causeChain(err).some((e) => e instanceof PublisherFencedError);
}

/**
 * GroupOptions join a consumer group. Offsets are committed only by commit(); a partition without a committed offset
 * is read from the beginning when fromBeginning, else from its end.
 */
export type GroupOptions = {
  readonly groupId: string;
  readonly topics: readonly string[];
  readonly fromBeginning: boolean;
  /**
   * ephemeral: the group is this member's alone (groupId must be unique, e.g. with a random suffix): it reads every
   * partition and is deleted from the cluster when the member stops, so throwaway groups do not pile up.
   */
  readonly ephemeral?: boolean;
  /**
   * coPartitioned: assign the same partition number of every topic to the same member (the co-partitioning
   * assigner); unequal partition counts fail the rebalance. Absent: Kafka's default assignment.
   */
  readonly coPartitioned?: boolean;
  /**
   * partitions: only these partition numbers of each topic are assigned (to the one member of an ephemeral group), so
   * a tool reading one key's partition fetches nothing else. Absent: every partition.
   */
  readonly partitions?: readonly number[];
  /**
   * startAt is the offset an assigned partition is read from on every assignment, whatever the group committed
   * (undefined: the committed offset, else fromBeginning decides). An offset before the log's start reads from the
   * start. With it a member can restore its partitions and still commit, so that lag tools see its position.
   */
  readonly startAt?: (tp: TopicPartition) => string | undefined;
  /**
   * commitProgress: every few seconds the member commits how far it processed each partition (each it says true of,
   * when a function), so that lag tools (kafka-consumer-groups.sh --describe, kcm-bus lag) see its position; with
   * startAt that is all the commits do.
   */
  readonly commitProgress?: boolean | ((tp: TopicPartition) => boolean);
  /** concurrency is how many partitions are consumed side by side (each in order); default 1. */
  readonly concurrency?: number;
  /**
   * fetchLingerMs holds the next fetch that long after one that brought records (FetchLinger), so that records
   * arriving meanwhile come in one fetch; default 0, the next fetch goes at once.
   */
  readonly fetchLingerMs?: number;
  /**
   * pausedAtJoin: the assigned partitions it says true of are paused at every join, before their first fetch, until
   * the member resumes them (GroupMember.resume); every other assigned partition is fetched.
   */
  readonly pausedAtJoin?: (tp: TopicPartition) => boolean;
  /**
   * maxWaitMs is how long a fetch waits at the broker for records when none are there (fetch.max.wait.ms); default
   * kafkajs's 5000. Stopping a member waits for its fetch in flight, so a reader that stops once it has read what it
   * wanted keeps this short.
   */
  readonly maxWaitMs?: number;
  /** onAssigned runs after every join, before any batch of the new assignment, with each assigned partition's offsets. */
  readonly onAssigned?: (assignment: readonly PartitionOffsets[]) => Promise<void> | void;
  /**
   * onBatch handles one batch, never before joinGroup resolved (so it may commit through the member); heartbeat
   * keeps the membership alive during a long batch.
   */
  readonly onBatch: (batch: BusBatch, heartbeat: () => Promise<void>) => Promise<void>;
  /** onProgress is told the last offset of every batch processed, including batches of transaction markers only. */
  readonly onProgress?: (tp: TopicPartition, lastOffset: string) => void;
  /** onCrash: the consumer failed; restart false means it stopped for good. */
  readonly onCrash: (err: unknown, restart: boolean) => void;
};

/** GroupMember is a running consumer-group member. */
export interface GroupMember {
  /** joined tells whether the member has joined the group at least once. */
  joined(): boolean;
  /** commit commits the next offset to read of each partition (the last processed offset + 1). */
  commit(offsets: readonly (TopicPartition & { readonly offset: string })[]): Promise<void>;
  /** pause stops fetching the partitions (a batch already fetched is still handed over) until they are resumed. */
  pause(tps: readonly TopicPartition[]): void;
  /** resume fetches the partitions again, each from its `offset` when it names one, else from where it was. */
  resume(tps: readonly (TopicPartition & { readonly offset?: string })[]): void;
  /** stop leaves the group (its partitions move to the other members at once) and disconnects. */
  stop(): Promise<void>;
}

/**
 * GroupOffsets are a consumer group's state, member count, and every partition a member is assigned or the group
 * committed on, with its committed offset (the next offset to read; undefined: none committed yet).
 */
export type GroupOffsets = {
  readonly groupId: string;
  readonly state: string;
  readonly members: number;
  readonly partitions: readonly (TopicPartition & { readonly committed: string | undefined })[];
};

/** KafkaAclOperation is an operation a Kafka ACL allows, as Kafka names it. */
export type KafkaAclOperation =
  'READ' | 'WRITE' | 'CREATE' | 'DELETE' | 'DESCRIBE' | 'DESCRIBE_CONFIGS' | 'ALTER_CONFIGS';

/** KafkaAcl is one ALLOW entry of the broker's authorizer: a principal may do an operation on a named (or prefixed) resource, from any host. */
export type KafkaAcl = {
  readonly principal: string;
  readonly resourceType: 'TOPIC' | 'GROUP' | 'TRANSACTIONAL_ID';
  readonly resourceName: string;
  readonly prefixed: boolean;
  readonly operation: KafkaAclOperation;
};

/** TopicSpec is a topic kcm-bus creates when it is missing, and whose configs it keeps as given. */
export type TopicSpec = {
  readonly topic: string;
  readonly partitions: number;
  readonly configs: Readonly<Record<string, string>>;
};

/**
 * historyTopicConfigs keep every record of the audit window, in order, for replay, trace and audit, and delete what
 * is older: a history topic is never compacted, so no version of an object inside the window is lost. Like every
 * topic that carries API objects, it takes a record as large as the largest object (RECORD_LIMIT_CONFIG).
 */
export function historyTopicConfigs(auditWindowMs: number): Record<string, string> {
  return keptFor(auditWindowMs);
}

/**
 * STATE_TOPIC_CONFIGS compact a state topic eagerly, so a member that restores from it reads about one record per live key
 * plus a short tail, whatever the traffic (Kafka Streams' changelog topics): segments roll every minute (the active
 * segment is never compacted), any dirt is cleanable at once, and a dirty segment is compacted within five minutes
 * at the latest. Tombstones stay an hour (delete.retention.ms): a member that started restoring within an hour of a
 * delete reads it (a restore of the live state takes seconds), so a compacted-away delete cannot resurrect an object.
 * The same setting bounds how long the commit markers of the watcher's transactions (one a second per partition, for
 * the watermarks) stay in the log, which a restore reads too: a day's worth was the larger part of a small topic.
 */
export const STATE_TOPIC_CONFIGS: Readonly<Record<string, string>> = {
  'cleanup.policy': 'compact',
  'segment.ms': '60000',
  'min.cleanable.dirty.ratio': '0.1',
  'min.compaction.lag.ms': '0',
  'max.compaction.lag.ms': '300000',
  'delete.retention.ms': '3600000',
  ...RECORD_LIMIT_CONFIG,
};

/** PartitionReplicas is one partition's place in the cluster (kafka-topics.sh --describe): node ids, leader -1 when none. */
export type PartitionReplicas = TopicPartition & {
  readonly leader: number;
  readonly replicas: readonly number[];
  readonly isr: readonly number[];
};

/** Bus is the Kafka cluster as kcm-bus uses it. */
export interface Bus {
  /**
   * ensureTopics creates the missing topics, sets the given configs on existing ones (a topic made by an older
   * version gets today's policy), and returns every topic's actual partition count.
   */
  ensureTopics(specs: readonly TopicSpec[]): Promise<Map<string, number>>;
  /** topicConfigs are a topic's configs as the broker reports them (defaults included). */
  topicConfigs(topic: string): Promise<Readonly<Record<string, string>>>;
  /** partitionCount is an existing topic's partition count; it fails naming the topic when the topic does not exist. */
  partitionCount(topic: string): Promise<number>;
  /** offsets are the low and high-water marks of every partition of a topic (read_committed). */
  offsets(topic: string): Promise<readonly PartitionOffsets[]>;
  /** replicas say where each partition of the topics lives: its leader, replicas and in-sync replicas (node ids). */
  replicas(topics: readonly string[]): Promise<readonly PartitionReplicas[]>;
  /** deleteTopics deletes topics kcm-bus made for a while only (a benchmark's throwaway mutations topic). */
  deleteTopics(topics: readonly string[]): Promise<void>;
  publisher(): Promise<Publisher>;
  transactionalPublisher(transactionalId: string): Promise<TransactionalPublisher>;
  joinGroup(options: GroupOptions): Promise<GroupMember>;
  /** topics are the names of every topic of the cluster (kafka-topics.sh --list), internal ones included. */
  topics(): Promise<readonly string[]>;
  /** groupOffsets are every consumer group's assigned partitions and committed offsets (kafka-consumer-groups.sh --describe). */
  groupOffsets(): Promise<readonly GroupOffsets[]>;
  /**
   * readTail reads the last `count` offsets (records and transaction markers) of every partition of the topics, up
   * to the end they have now, in order per partition.
   */
  readTail(
    topics: readonly string[],
    count: number,
    onRecord: (record: BusRecord, tp: TopicPartition) => Promise<void> | void,
  ): Promise<void>;
  /**
   * readToEnd reads every committed record of a topic up to the end it has now, in order per partition; with
   * partitions, only those partitions.
   */
  readToEnd(
    topic: string,
    onRecord: (record: BusRecord, partition: number) => Promise<void> | void,
    partitions?: readonly number[],
  ): Promise<void>;
}
