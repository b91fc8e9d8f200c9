import type { GroupMember, PartitionOffsets } from '../bus/bus.ts';
import type { Mutation } from '../mutation/mutation.ts';
import { namespacePartitionKey, partitionFor } from '../partition/murmur2.ts';
import { DEAD_LETTER_CONFIGS, deadLetterTopic } from '../faults/record-fault.ts';
import type { Signing } from '../signing/signing.ts';
import type { InputScope } from '../controller/controller-types.ts';
import { lockTopic, type ControllerGroupOptions, type GroupPart } from './controller-group-options.ts';
import { GroupPublisher } from './group-publisher.ts';
import { InputReader } from './input-reader.ts';
import { RecordIntake } from './record-intake.ts';

const PARTITIONS_AT_ONCE = 16;

/**
 * ControllerGroup is a service's membership of its consumer group, for the controllers (parts) attached to it: it
 * reads each input once for all of them, as upstream's controllers share one informer per kind. Partitioned inputs and
 * the results are read in the group with the co-partitioning assigner, every newly assigned input partition restored
 * from the beginning (state is rebuilt from the topics), one kept across a rebalance read on (InputReader), and the
 * results read on from where this member or else the group left them (startPositions); global inputs are read whole
 * by an ephemeral group of this member's own (a singleton's results with them). A key is owned when its partition is
 * assigned here, and synced once that partition and every global input was read up to the high-water marks seen on
 * assignment (the Kafka form of WaitForCacheSync). What it reads goes to the controllers through RecordIntake; what it
 * writes, through GroupPublisher.
 */
export class ControllerGroup {
  readonly #o: ControllerGroupOptions;
  readonly #parts: GroupPart[] = [];
  #partitioned = new InputReader([]);
  #global = new InputReader([]);
  readonly #members: GroupMember[] = [];
  readonly #publisher: GroupPublisher;
  readonly #intake: RecordIntake;
  #owned: ReadonlySet<number> = new Set();
  #globalAssigned = false;
  /** #partitionedAssigned: the group gave this member an assignment (maybe empty) at least once. */
  #partitionedAssigned = false;
  #partitions = 1;

  constructor(o: ControllerGroupOptions) {
    this.#o = o;
    this.#publisher = new GroupPublisher(o);
    this.#intake = new RecordIntake(o, this.#parts, this.#publisher);
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
    await this.#publisher.connect(o.bus);
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

  /** partitionSynced: the partition is owned and synced, and every global input is synced too. */
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
    return this.#intake.watermarks.watermark(topic, partitions);
  }

  /** partitionWatermark is the time up to which every co-partitioned input (of `topics`, a part's) is complete on partition n. */
  partitionWatermark(n: number, topics: readonly string[]): Date | undefined {
    return this.#intake.watermarks.partitionWatermark(topics, n);
  }

  /** ownedPartitions lists the owned partition numbers with whether each is synced (metrics). */
  ownedPartitions(): readonly { readonly partition: number; readonly synced: boolean }[] {
    return [...this.#owned].map((partition) => ({ partition, synced: this.partitionSynced(partition) }));
  }

  /** notReady says why the member is not ready (/readyz): a transient fault being retried, joining, or catching up. */
  notReady(): string | undefined {
    const fault = this.#intake.fault();
    if (fault !== undefined) return `retrying a record: ${fault}`;
    return this.ready() ? undefined : "joining the group or catching up with the inputs' backlog";
  }

  /** ready: assigned (an empty share counts), and every assigned partition and every global input synced. */
  ready(): boolean {
    return (
      this.#partitionedAssigned &&
      this.#members.length > 0 &&
      this.#members.every((m) => m.joined()) &&
      this.#partitioned.sync.allSynced() &&
      this.#globalSynced()
    );
  }

  /** publish sends mutations keyed by their target object, signed as the controller that made them (GroupPublisher). */
  publish(mutations: readonly Mutation[], signing: Signing): Promise<void> {
    return this.#publisher.publish(mutations, signing);
  }

  /** stop leaves the groups (partitions move at once) and disconnects. */
  async stop(): Promise<void> {
    this.#intake.stop();
    for (const m of this.#members.splice(0)) await m.stop();
    await this.#publisher.close();
  }

  /**
   * #track follows an assignment: the inputs' partitions in the reader, whose sync they gate (the partition numbers it
   * keeps are returned); a results partition by the high-water mark seen on assignment, where its live results begin
   * (results build no store: they gate nothing).
   */
  #track(reader: InputReader, assignment: readonly PartitionOffsets[]): ReadonlySet<number> {
    this.#intake.resultsAssigned(assignment.filter((p) => p.topic === this.#o.resultsTopic));
    return reader.assigned(assignment.filter((p) => p.topic !== this.#o.resultsTopic));
  }

  /**
   * #readFrom applies an assignment to a reader (#track): the objects of its scope's inputs on the partitions it does
   * not keep are dropped, as those partitions restore (counted) or moved away.
   */
  #readFrom(reader: InputReader, scope: InputScope, assignment: readonly PartitionOffsets[]): ReadonlySet<number> {
    const kept = this.#track(reader, assignment);
    for (const p of this.#parts) p.dropWhere(scope, (key) => !kept.has(this.watchPartitionOf(key)));
    for (const p of assignment) if (reader.restoresFrom(p.topic) && !kept.has(p.partition)) this.#o.onRestore(p.topic);
    return kept;
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
      ...this.#partitioned.startPositions(this.#o.resultsTopic, (n) => this.#intake.resultsFrom(n)),
      onAssigned: async (assignment) => {
        for (const p of this.#parts) await p.takeFencingTokens?.([...new Set(assignment.map((a) => a.partition))]);
        this.#assigned(assignment);
      },
      onBatch: (batch, heartbeat) => this.#intake.consume(this.#partitioned, batch, heartbeat),
      onProgress: (tp, offset) => this.#intake.progress(this.#partitioned, tp, offset),
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
      fetchLingerMs: this.#o.fetchLingerMs ?? 0,
      startAt: (tp) => (this.#global.reads(tp.topic) && !this.#global.pausedAtJoin(tp) ? '0' : undefined),
      pausedAtJoin: this.#global.pausedAtJoin,
      onAssigned: (assignment) => {
        this.#readFrom(this.#global, 'global', assignment);
        this.#globalAssigned = true;
      },
      onBatch: (batch, heartbeat) => this.#intake.consume(this.#global, batch, heartbeat),
      onProgress: (tp, offset) => this.#intake.progress(this.#global, tp, offset),
      onCrash: (err, restart) => this.#crashed(err, restart),
    });
  }

  /**
   * #assigned sets up a new assignment: lost partitions are revoked and their keys' state dropped; a partition kept
   * from the previous assignment reads on (InputReader); every other one restores from the beginning, so its stores
   * start empty (a delete whose tombstone was compacted away cannot survive as a ghost) and it must catch up again
   * before its keys sync.
   */
  #assigned(assignment: readonly PartitionOffsets[]): void {
    const numbers = new Set(assignment.map((p) => p.partition));
    const wasActive = this.#owned.size > 0;
    this.#owned = numbers;
    this.#partitionedAssigned = true;
    const kept = this.#readFrom(this.#partitioned, 'partitioned', assignment);
    for (const p of this.#parts) p.controller.dropWhere((key) => !numbers.has(this.partitionOf(key)));
    const sorted = (ns: Iterable<number>): number[] => [...ns].sort((a, b) => a - b);
    this.#o.log.info('partitions assigned', { partitions: sorted(numbers), kept: sorted(kept) });
    // A singleton's member just became active: what its global inputs hold is new to it. One that held the lock under
    // the previous assignment too dropped no key meanwhile (its keys stayed owned), so it has nothing to catch up on.
    if (this.#o.singleton && numbers.size > 0 && !wasActive)
      for (const p of this.#parts) p.controller.onActivated(new Date());
  }

  #crashed(err: unknown, restart: boolean): void {
    if (!restart) this.#o.fatal('the consumer crashed and will not restart', err);
  }
}
