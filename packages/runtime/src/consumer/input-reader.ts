import type { BusRecord, GroupMember, GroupOptions, PartitionOffsets, TopicPartition } from '../bus/bus.ts';
import { CacheSync } from './cache-sync.ts';
import { type Disagreement, Inventories } from './inventory.ts';
import { PartitionMap } from './partition-map.ts';
import { StateHandoff } from './state-handoff.ts';
import { INVENTORY_HEADER } from '@kcm-bus/schemas/watch-record.ts';
import type { Routed } from './record-route.ts';

/**
 * InputReader is what one consumer group member of a ControllerGroup reads of its inputs (StateHandoff): each
 * assigned partition of a state topic from the beginning while the history partition waits (paused at join), then the
 * history partition from the state's checkpoint on. A partition is synced once its state reached the high-water
 * mark seen on assignment and its history the one seen then too (the Kafka form of WaitForCacheSync). What it reads
 * of the state past that mark is left to the history, which holds it too, in order.
 *
 * A partition number whose history this member was reading when the group rebalanced, and that a new assignment gives
 * it again, is kept: its stores stay, and its history is read on from the next offset it had not applied, which
 * brings every change since, in order (a relist's deletes too: the watcher writes everything to the history first),
 * as long as the history still holds that offset (retention.ms); otherwise it restores like a partition new to it. A
 * broker's restart or a member joining or leaving thus restores only the partitions that moved.
 */
export class InputReader {
  readonly sync = new CacheSync();
  readonly #inventories = new Inventories();
  readonly #handoff: StateHandoff;
  readonly #historyHigh = new PartitionMap<string>();
  /** #positions are the next offset of each history partition read since its state partition handed off. */
  readonly #positions = new PartitionMap<bigint>();
  #member: Promise<GroupMember> | undefined;

  /** states are the state topics of the inputs. */
  constructor(states: readonly string[]) {
    this.#handoff = new StateHandoff(states);
  }

  /** topics are the inputs' state and history topics. */
  topics(): readonly string[] {
    return this.#handoff.topics();
  }

  /** member is the group member whose partitions this reader pauses and resumes (set when joining). */
  set member(member: Promise<GroupMember>) {
    this.#member = member;
  }

  /**
   * pausedAtJoin: a history partition waits at every join until its state partition is restored, or it is kept; the
   * state partition of a number that may be kept waits too (assigned decides, with the offsets the join fetched).
   */
  readonly pausedAtJoin = (tp: TopicPartition): boolean =>
    this.#handoff.isHistory(tp.topic) || (this.#handoff.isState(tp.topic) && this.#readingOn(tp.partition));

  /**
   * startPositions are where a partitioned member reads an assigned partition: an input's state topic from its
   * beginning on each assignment that does not keep it, whatever the group committed (its stores are rebuilt from the
   * topics), its history topic from the state's checkpoint (InputReader, which pauses it until then); the results from
   * where this member read them on if it held the partition at its last assignment (resultsFrom: ResultsPositions),
   * else where the group last read them (undefined: the committed offset; a group that never committed reads them
   * from the beginning, once). Results build no state: what a member needs of them is what came since (a failed create's
   * expectations lowered), and restoring them whole on every assignment made a restart cost the audit window, an
   * Ed25519 verification per result ever written. Progress on the history and results is committed either way, so
   * ordinary lag tools (kafka-consumer-groups.sh --describe) see the members; a state topic, read only to restore, has
   * none. Not for the ephemeral readers of global inputs: a member killed before deleting its reader would leave a
   * group with offsets behind, which the broker keeps for offsets.retention.minutes (a week) where an empty one goes at
   * once.
   */
  startPositions(
    resultsTopic: string,
    resultsFrom: (partition: number) => string | undefined,
  ): Pick<GroupOptions, 'startAt' | 'commitProgress' | 'pausedAtJoin'> {
    return {
      startAt: (tp) =>
        tp.topic === resultsTopic ? resultsFrom(tp.partition) : this.pausedAtJoin(tp) ? undefined : '0',
      commitProgress: (tp) => !this.restoresFrom(tp.topic),
      pausedAtJoin: this.pausedAtJoin,
    };
  }

  /** canonical is the input's name of a topic's records (the state topic's, for both). */
  canonical(topic: string): string {
    return this.#handoff.canonical(topic);
  }

  /**
   * restoresFrom tells a state topic: read only to restore, so committing how far (its lag would grow with every
   * checkpoint after) tells a lag tool nothing.
   */
  restoresFrom(topic: string): boolean {
    return this.#handoff.isState(topic);
  }

  /** reads tells whether the topic is one of the inputs' (state or history). */
  reads(topic: string): boolean {
    return this.#handoff.isState(topic) || this.#handoff.isHistory(topic);
  }

  /**
   * assigned starts a new assignment of input partitions, each tracked with its high-water mark, and returns the
   * partition numbers kept: their stores stay and their history reads on from its position; every other partition
   * restores again, and a state partition with nothing to read hands off at once.
   */
  assigned(assignment: readonly PartitionOffsets[]): ReadonlySet<number> {
    const kept = this.#kept(assignment);
    const restarting = new Set(assignment.map((p) => p.partition).filter((n) => this.#readingOn(n) && !kept.has(n)));
    this.#handoff.reset((n) => kept.has(n));
    this.#inventories.reset((n) => kept.has(n));
    this.#positions.keepPartitions((n) => kept.has(n));
    for (const tp of this.sync.assignedPartitions()) this.sync.revoked(tp);
    for (const p of assignment) {
      const keptState = this.#handoff.isState(p.topic) && kept.has(p.partition);
      this.sync.assigned(p, keptState ? 0 : p.high, keptState ? 0 : p.low);
      if (this.#handoff.isHistory(p.topic)) this.#historyHigh.set(p, p.high);
    }
    for (const p of assignment) {
      if (this.#handoff.isHistory(p.topic) && kept.has(p.partition)) void this.#readOn(p);
      if (!this.#handoff.isState(p.topic) || kept.has(p.partition)) continue;
      if (this.sync.synced(p)) void this.#handOff(p);
      else if (restarting.has(p.partition)) void this.#restore(p);
    }
    return kept;
  }

  /**
   * #kept are the partition numbers of an assignment this member reads on: it was reading the history of each input
   * on the number, every one of those history partitions is assigned again and still holds the next offset, and what
   * it holds of them agreed with the watcher's inventory last time it was told (a diverged partition restores).
   */
  #kept(assignment: readonly PartitionOffsets[]): ReadonlySet<number> {
    const offsets = new PartitionMap<PartitionOffsets>();
    for (const p of assignment) offsets.set(p, p);
    const holds = (history: TopicPartition): boolean => {
      const [next, p] = [this.#positions.get(history), offsets.get(history)];
      return next !== undefined && p !== undefined && next >= BigInt(p.low) && next <= BigInt(p.high);
    };
    const numbers = new Set(assignment.map((p) => p.partition));
    return new Set(
      [...numbers].filter(
        (n) =>
          this.#readingOn(n) &&
          !this.#inventories.disagrees(n) &&
          this.#handoff.historyTopics().every((topic) => holds({ topic, partition: n })),
      ),
    );
  }

  /** #readingOn: the member was reading the history of every input on partition number n (each one handed off). */
  #readingOn(n: number): boolean {
    const topics = this.#handoff.historyTopics();
    return topics.length > 0 && topics.every((topic) => this.#positions.has({ topic, partition: n }));
  }

  /**
   * accept says what to do with a record: apply it (a state record not past its partition's sync, a checkpoint marker
   * noted; a history record of an epoch not older than its partition's; any other), skip it (a state record past
   * the sync: the history brings it), or refuse it, with the reason (a history record of an older epoch).
   */
  accept(tp: TopicPartition, record: BusRecord): 'apply' | 'skip' | { readonly refused: string } {
    if (this.#handoff.isState(tp.topic)) {
      if (this.sync.synced(tp)) return 'skip';
      this.#handoff.noteState(tp, record.headers);
      return 'apply';
    }
    const refused = this.#handoff.isHistory(tp.topic) ? this.#handoff.admit(tp, record.headers) : undefined;
    return refused === undefined ? 'apply' : { refused };
  }

  /**
   * counted adds a record it applied to its partition's inventory (Inventories), under the input's name; at a watermark
   * record carrying the watcher's inventory, a Disagreement when the partition starts to differ from it.
   */
  counted(tp: TopicPartition, record: BusRecord, routed: Routed | undefined): Disagreement | undefined {
    const topic = this.canonical(tp.topic);
    if (routed?.kind === 'event') {
      if (routed.event.type === 'Deleted') this.#inventories.deleted(topic, tp.partition, routed.event.key);
      else this.#inventories.applied(topic, tp.partition, routed.event.key);
    }
    const watcher = record.headers[INVENTORY_HEADER];
    if (routed?.kind !== 'watermark' || watcher === undefined) return undefined;
    return this.#inventories.check(topic, tp.partition, watcher);
  }

  /** progress records how far a partition was read; true when that made it synced (a state partition then hands off). */
  progress(tp: TopicPartition, offset: string): boolean {
    const position = this.#positions.get(tp);
    if (position !== undefined && BigInt(offset) >= position) this.#positions.set(tp, BigInt(offset) + 1n);
    if (!this.sync.consumed(tp, offset)) return false;
    if (this.#handoff.isState(tp.topic)) void this.#handOff(tp);
    return true;
  }

  /** #handOff stops reading a restored state partition and reads its history partition from the checkpoint on. */
  async #handOff(state: TopicPartition): Promise<void> {
    const history = this.#handoff.historyOf(state);
    const resume = this.#handoff.handoff(state, this.#historyHigh.get(history) ?? '0');
    this.#positions.set(history, BigInt(resume.offset));
    (await this.#member)?.pause([state]);
    await this.#readOn(history);
  }

  /**
   * #readOn reads a history partition (paused at join, like every history partition) on from its position: a restored
   * state's checkpoint, or where a kept partition was. What came before counts as read for its sync.
   */
  async #readOn(history: TopicPartition): Promise<void> {
    const next = this.#positions.get(history) ?? 0n;
    (await this.#member)?.resume([{ topic: history.topic, partition: history.partition, offset: String(next) }]);
    if (next > 0n) this.sync.consumed(history, String(next - 1n));
  }

  /** #restore reads a state partition paused at join (it might have been kept) from its beginning after all. */
  async #restore(state: TopicPartition): Promise<void> {
    (await this.#member)?.resume([{ topic: state.topic, partition: state.partition, offset: '0' }]);
  }
}
