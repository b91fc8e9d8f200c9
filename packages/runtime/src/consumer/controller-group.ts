import type {
  BusBatch,
  BusRecord,
  GroupMember,
  GroupOptions,
  PartitionOffsets,
  Publisher,
  TopicPartition,
} from '../bus/bus.ts';
import { Watermarks } from './watermarks.ts';
import type { Mutation } from '../mutation/mutation.ts';
import { namespacePartitionKey, partitionFor } from '../partition/murmur2.ts';
import { DEAD_LETTER_CONFIGS, deadLetterHeaders, deadLetterTopic } from '../faults/record-fault.ts';
import { RecordGuard, type RecordSource } from '../faults/record-guard.ts';
import { lockTopic, type ControllerGroupOptions, type GroupPart } from './controller-group-options.ts';
import { InputReader } from './input-reader.ts';
import { type Dispatch, dispatchInput, dispatchResult } from './part-dispatch.ts';
import { recordKey } from './record-route.ts';
import type { Signing } from '../signing/signing.ts';

const PARTITIONS_AT_ONCE = 16;

/** StaleEpochError refuses a history record of an older watcher epoch than its partition's newest (StateHandoff.admit). */
export class StaleEpochError extends Error {}

/**
 * restoreFrom is where a partitioned member reads an assigned partition: an input's state topic from its beginning on
 * each assignment, whatever the group committed (its stores are rebuilt from the topics), its history topic from the
 * state's checkpoint (InputReader, which holds it until then); the results from where the
 * group last read them (undefined: the committed offset; a group that never committed reads them from the beginning,
 * once). Results build no state: what a member needs of them is what came since (a failed create's expectations
 * lowered), and restoring them whole on every assignment made a restart cost the audit window, an Ed25519
 * verification per result ever written. Progress on the history and results is committed either way, so ordinary lag
 * tools (kafka-consumer-groups.sh --describe) see the members; a state topic, read only to restore, has none. Not for
 * the ephemeral readers of global inputs: a member
 * killed before deleting its reader would leave a group with offsets behind, which the broker keeps for
 * offsets.retention.minutes (a week) where an empty one goes at once.
 */
function restoreFrom(
  resultsTopic: string,
  reader: InputReader,
): Pick<GroupOptions, 'startAt' | 'commitProgress' | 'heldAtJoin'> {
  return {
    startAt: (tp) => (tp.topic === resultsTopic || reader.held(tp) ? undefined : '0'),
    commitProgress: (tp) => !reader.restoresFrom(tp.topic),
    heldAtJoin: reader.held,
  };
}

/**
 * ControllerGroup is a service's membership of its consumer group, for the controllers (parts) attached to it: it
 * reads each input once for all of them, as upstream's controllers share one informer per kind. Partitioned inputs and the results are read
 * in the group with the co-partitioning assigner, every assigned input partition restored from the beginning (state
 * is rebuilt from the topics) and the results read on from where the group left them (restoreFrom); global inputs
 * are read whole by an ephemeral group of this member's own (a singleton's results with them). Results gate no
 * sync: one is live when it came after the assignment (at or past the high-water mark seen then). A key is owned
 * when its partition is assigned here, and synced once that partition and every global input caught up with the
 * high-water marks seen on assignment (the Kafka form of WaitForCacheSync).
 */
export class ControllerGroup {
  readonly #o: ControllerGroupOptions;
  readonly #parts: GroupPart[] = [];
  #partitioned = new InputReader([]);
  #global = new InputReader([]);
  /** #resultsLiveFrom: per assigned results partition, the first offset of a live result (the high-water mark on assignment). */
  readonly #resultsLiveFrom = new Map<number, bigint>();
  readonly #watermarks = new Watermarks();
  readonly #members: GroupMember[] = [];
  #publisher: Publisher | undefined;
  #owned: ReadonlySet<number> = new Set();
  #globalAssigned = false;
  /** #partitionedAssigned: the group gave this member an assignment (maybe empty) at least once. */
  #partitionedAssigned = false;
  #partitions = 1;
  readonly #guard: RecordGuard;

  constructor(o: ControllerGroupOptions) {
    this.#o = o;
    this.#guard = new RecordGuard({
      deadLetter: (source, record, reason) => this.#deadLetter(source, record, reason),
      counted: (source) => o.onDeadLetter(source.topic),
      log: o.log,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
  }

  /** attach adds a controller to feed, before start. */
  attach(part: GroupPart): void {
    if (this.#o.singleton && part.partitioned.length > 0)
      throw new Error(`a singleton controller reads global inputs only, not ${part.partitioned.join(', ')}`);
    this.#parts.push(part);
  }

  /** start connects the publisher, joins the groups over every attached part's inputs and begins feeding the parts. */
  async start(): Promise<void> {
    const o = this.#o;
    const union = (scope: 'partitioned' | 'global'): string[] => [...new Set(this.#parts.flatMap((p) => p[scope]))];
    this.#partitioned = new InputReader(union('partitioned'));
    this.#global = new InputReader(union('global'));
    const inputs = [...this.#partitioned.topics(), ...this.#global.topics(), o.resultsTopic];
    await o.bus.ensureTopics(
      inputs.map((t) => ({ topic: deadLetterTopic(t), partitions: 1, configs: DEAD_LETTER_CONFIGS })),
    );
    if (o.singleton) await o.bus.ensureTopics([{ topic: lockTopic(o.groupId), partitions: 1, configs: {} }]);
    await this.#coPartition(o);
    this.#publisher = await o.bus.publisher();
    const globalTopics = o.singleton ? [...this.#global.topics(), o.resultsTopic] : this.#global.topics();
    if (globalTopics.length > 0) this.#members.push(await this.#joined(this.#global, this.#joinGlobal(globalTopics)));
    this.#members.push(
      await this.#joined(
        this.#partitioned,
        this.#joinPartitioned(o.singleton ? [lockTopic(o.groupId)] : [...this.#partitioned.topics(), o.resultsTopic]),
      ),
    );
  }

  /** #joined gives the reader its member (it pauses and resumes the member's partitions) once joining resolves. */
  #joined(reader: InputReader, joining: Promise<GroupMember>): Promise<GroupMember> {
    reader.member = joining;
    return joining;
  }

  /**
   * #coPartition reads the partition count of the watch topics (the co-partitioned inputs', or a singleton's global
   * ones: the watcher gives every topic the same). The writer creates the results topic; a reconciler started first
   * creates it with the same count (its configs stay the writer's to set).
   */
  async #coPartition(o: ControllerGroupOptions): Promise<void> {
    const inputs = this.#parts.flatMap((p) => [...p.partitioned, ...p.global]);
    this.#partitions = await o.bus.partitionCount(inputs[0] ?? o.resultsTopic);
    await o.bus.ensureTopics([{ topic: o.resultsTopic, partitions: this.#partitions, configs: {} }]);
  }

  /** partitionOf is a key's partition number: by namespace with Kafka's murmur2; always 0 in a singleton group. */
  partitionOf(key: string): number {
    return this.#o.singleton ? 0 : this.watchPartitionOf(key);
  }

  /** watchPartitionOf is the partition an object's records are on in the watch topics (the watcher's partitioner). */
  watchPartitionOf(objectKey: string): number {
    return partitionFor(namespacePartitionKey(objectKey), this.#partitions);
  }

  /** partitionOwned: the partition number is assigned to this member. */
  partitionOwned(n: number): boolean {
    return this.#owned.has(n);
  }

  /** partitionSynced: the partition is owned, caught up, and every global input caught up too. */
  partitionSynced(n: number): boolean {
    return this.#owned.has(n) && this.#partitioned.sync.partitionSynced(n) && this.#globalSynced();
  }

  /**
   * watermark is the watcher's time up to which an input topic is complete here: the oldest newest time (a
   * watermark's or a record's, see Watermarks) of its partitions this member reads (all of a global input's, the
   * owned ones of a partitioned input's); with an object key, of the one partition its records are on, if read here.
   */
  watermark(topic: string, key?: string): Date | undefined {
    const global = this.#global.sync
      .assignedPartitions()
      .filter((tp) => tp.topic === topic)
      .map((tp) => tp.partition);
    const read = this.#parts.some((p) => p.global.includes(topic)) ? global : [...this.#owned];
    const partitions = key === undefined ? read : read.filter((p) => p === this.watchPartitionOf(key));
    return this.#watermarks.watermark(topic, partitions);
  }

  /** partitionWatermark is the time up to which every co-partitioned input (of `topics`, a part's) is complete on partition n. */
  partitionWatermark(n: number, topics: readonly string[]): Date | undefined {
    return this.#watermarks.partitionWatermark(topics, n);
  }

  /** ownedPartitions lists the owned partition numbers with whether each is synced (metrics). */
  ownedPartitions(): readonly { readonly partition: number; readonly synced: boolean }[] {
    return [...this.#owned].map((partition) => ({ partition, synced: this.partitionSynced(partition) }));
  }

  /** notReady says why the member is not ready (/readyz): a transient fault being retried, joining, or catching up. */
  notReady(): string | undefined {
    const fault = this.#guard.fault();
    if (fault !== undefined) return `retrying a record: ${fault}`;
    return this.ready() ? undefined : "joining the group or catching up with the inputs' backlog";
  }

  /** ready: assigned (an empty share counts), and every assigned partition and every global input caught up. */
  ready(): boolean {
    return (
      this.#partitionedAssigned &&
      this.#members.length > 0 &&
      this.#members.every((m) => m.joined()) &&
      this.#partitioned.sync.allSynced() &&
      this.#globalSynced()
    );
  }

  /** publish sends mutations keyed by their target object (acks=all), signed as the controller that made them. */
  async publish(mutations: readonly Mutation[], signing: Signing): Promise<void> {
    if (mutations.length === 0 || !this.#publisher) return;
    const { topic, serde } = this.#o.mutations;
    const records = await Promise.all(
      mutations.map(async (m) => {
        const [key, value] = [recordKey(m), (await serde.encode(m)).bytes];
        return { key, value, headers: signing.headers(key, value) };
      }),
    );
    await this.#publisher.send(topic, records);
  }

  /** stop leaves the groups (partitions move at once) and disconnects. */
  async stop(): Promise<void> {
    this.#guard.stop();
    for (const m of this.#members.splice(0)) await m.stop();
    await this.#publisher?.close();
  }

  /**
   * #track follows an assignment: the inputs' partitions in the reader, whose sync they gate; a results partition by
   * the high-water mark seen on assignment, where its live results begin (results build no store: they gate nothing).
   */
  #track(reader: InputReader, assignment: readonly PartitionOffsets[]): void {
    for (const p of assignment)
      if (p.topic === this.#o.resultsTopic) this.#resultsLiveFrom.set(p.partition, BigInt(p.high));
    reader.assigned(assignment.filter((p) => p.topic !== this.#o.resultsTopic));
  }

  #globalSynced(): boolean {
    return this.#global.topics().length === 0 && !this.#o.singleton
      ? true
      : this.#globalAssigned && this.#global.sync.allSynced();
  }

  #joinPartitioned(topics: readonly string[]): Promise<GroupMember> {
    return this.#o.bus.joinGroup({
      groupId: this.#o.groupId,
      topics,
      fromBeginning: true,
      coPartitioned: true,
      concurrency: PARTITIONS_AT_ONCE,
      ...restoreFrom(this.#o.resultsTopic, this.#partitioned),
      onAssigned: async (assignment) => {
        for (const p of this.#parts) await p.takeFencingTokens?.([...new Set(assignment.map((a) => a.partition))]);
        this.#assigned(assignment);
      },
      onBatch: (batch, heartbeat) => this.#consume(this.#partitioned, batch, heartbeat),
      onProgress: (tp, offset) => this.#progress(this.#partitioned, tp, offset),
      onCrash: (err, restart) => this.#crashed(err, restart),
    });
  }

  #joinGlobal(topics: readonly string[]): Promise<GroupMember> {
    return this.#o.bus.joinGroup({
      groupId: `${this.#o.groupId}.global.${crypto.randomUUID()}`,
      ephemeral: true,
      topics,
      fromBeginning: true,
      concurrency: PARTITIONS_AT_ONCE,
      startAt: (tp) => (this.#global.reads(tp.topic) && !this.#global.held(tp) ? '0' : undefined),
      heldAtJoin: this.#global.held,
      onAssigned: (assignment) => {
        this.#track(this.#global, assignment);
        this.#globalAssigned = true;
      },
      onBatch: (batch, heartbeat) => this.#consume(this.#global, batch, heartbeat),
      onProgress: (tp, offset) => this.#progress(this.#global, tp, offset),
      onCrash: (err, restart) => this.#crashed(err, restart),
    });
  }

  /**
   * #assigned sets up a new assignment: lost partitions are revoked and their keys' state dropped; every assigned
   * partition restores from the beginning, so its stores start empty (a delete whose tombstone was compacted away
   * cannot survive as a ghost) and it must catch up again before its keys sync.
   */
  #assigned(assignment: readonly PartitionOffsets[]): void {
    const numbers = new Set(assignment.map((p) => p.partition));
    this.#owned = numbers;
    this.#partitionedAssigned = true;
    for (const p of this.#parts) {
      p.dropWhere(() => true);
      p.controller.dropWhere((key) => !numbers.has(this.partitionOf(key)));
    }
    this.#track(this.#partitioned, assignment);
    this.#o.log.info('partitions assigned', { partitions: [...numbers].sort((a, b) => a - b) });
    // A singleton's member just became active (or stays so): what its global inputs hold is new to it.
    if (this.#o.singleton && numbers.size > 0) for (const p of this.#parts) p.controller.onActivated(new Date());
  }

  async #consume(reader: InputReader, batch: BusBatch, heartbeat: () => Promise<void>): Promise<void> {
    const resultsLiveFrom =
      batch.topic === this.#o.resultsTopic ? (this.#resultsLiveFrom.get(batch.partition) ?? 0n) : undefined;
    const tp = { topic: batch.topic, partition: batch.partition };
    for (const record of batch.records) {
      const accepted = resultsLiveFrom === undefined ? reader.accept(tp, record) : 'apply';
      const live = resultsLiveFrom === undefined ? reader.sync.synced(tp) : BigInt(record.offset) >= resultsLiveFrom;
      const source = { ...tp, offset: record.offset };
      // A refused record is dead-lettered with its reason, as a poison record is: visible, counted, and lost to no one.
      const dispatch = { tp, topic: reader.canonical(tp.topic), record, live };
      const handle =
        typeof accepted === 'object'
          ? () => Promise.reject(new StaleEpochError(accepted.refused))
          : () =>
              resultsLiveFrom === undefined
                ? this.#input(reader, dispatch)
                : dispatchResult(this.#parts, this.#o.results, dispatch);
      if (accepted !== 'skip') await this.#guard.handle(source, record, handle, heartbeat);
      this.#progress(reader, tp, record.offset);
      await heartbeat();
    }
  }

  /**
   * #input hands an input record to the parts and counts it in its partition's inventory: a view that stops agreeing
   * with the watcher's (a record lost or kept that should not have been) is counted and logged.
   */
  async #input(reader: InputReader, d: Dispatch): Promise<void> {
    const disagreement = reader.counted(d.tp, d.record, await dispatchInput(this.#parts, this.#watermarks, d));
    if (disagreement === undefined) return;
    this.#o.onDivergence(disagreement.topic);
    this.#o.log.error(
      "this member's objects of an input partition differ from what the watcher published up to the same record",
      { ...disagreement, remedy: 'restart the member: it restores the partition from the state topic' },
    );
  }

  #progress(reader: InputReader, tp: TopicPartition, offset: string): void {
    if (reader.progress(tp, offset)) this.#o.log.info('partition caught up', { ...tp, offset });
  }

  async #deadLetter(source: RecordSource, record: BusRecord, reason: string): Promise<void> {
    const headers = deadLetterHeaders(source, reason, this.#o.groupId);
    await this.#publisher?.send(deadLetterTopic(source.topic), [
      { key: record.key?.toString() ?? '', value: record.value, headers },
    ]);
  }

  #crashed(err: unknown, restart: boolean): void {
    if (!restart) this.#o.fatal('the consumer crashed and will not restart', err);
  }
}
