import type { TopicPartition } from '../bus/bus.ts';
import { kindOfTopic, watchTopic } from '@kcm-bus/schemas/kinds.ts';
import { epochOf, HISTORY_NEXT_HEADER } from '@kcm-bus/schemas/watch-record.ts';
import { PartitionMap } from './partition-map.ts';

/** Resume is where a history partition is read from once its state partition was restored. */
export type Resume = TopicPartition & { readonly offset: string };

/**
 * StateHandoff is how a member reads a watched kind: each assigned partition of its state topic from the beginning
 * (about one record per live object), then the same partition of its history topic from the offset the state's last
 * checkpoint marker names (HISTORY_NEXT_HEADER; a partition without one, written before checkpoints, from its
 * high-water mark at assignment). Every history record of an older watcher epoch than the partition's newest (the
 * marker's, then each record's) is refused: a watcher a newer one replaced may still write for a while (a zombie),
 * and what it writes past the newer one's fence is not the truth. The records of both topics are one input, named
 * by the state topic (canonical).
 */
export class StateHandoff {
  readonly #states: ReadonlySet<string>;
  readonly #histories: ReadonlyMap<string, string>;
  readonly #markers = new PartitionMap<{ readonly next: bigint; readonly epoch: bigint }>();
  readonly #floors = new PartitionMap<bigint>();

  /** states are the state topics of the inputs; each one's history topic is its kind's watch topic. */
  constructor(states: readonly string[]) {
    this.#states = new Set(states);
    this.#histories = new Map(states.map((s) => [watchTopic(kindOfTopic(s)), s]));
  }

  /** topics are the state and history topics of the inputs. */
  topics(): readonly string[] {
    return [...this.#states, ...this.#histories.keys()];
  }

  /** historyTopics are the inputs' history topics. */
  historyTopics(): readonly string[] {
    return [...this.#histories.keys()];
  }

  isState(topic: string): boolean {
    return this.#states.has(topic);
  }

  isHistory(topic: string): boolean {
    return this.#histories.has(topic);
  }

  /** canonical is the input's name of a topic's records: a history topic's state topic, any other topic itself. */
  canonical(topic: string): string {
    return this.#histories.get(topic) ?? topic;
  }

  /**
   * reset forgets what earlier assignments read of the partitions that restore again; a kept partition (read on from
   * where it was) keeps its history's epoch floor.
   */
  reset(kept: (partition: number) => boolean): void {
    this.#markers.clear();
    this.#floors.keepPartitions(kept);
  }

  /** historyOf is the history partition of a state partition. */
  historyOf(state: TopicPartition): TopicPartition {
    return { topic: watchTopic(kindOfTopic(state.topic)), partition: state.partition };
  }

  /** noteState takes a state record's headers: a checkpoint marker names the history offset and epoch it restores to. */
  noteState(tp: TopicPartition, headers: Readonly<Record<string, string>>): void {
    const next = headers[HISTORY_NEXT_HEADER];
    if (next !== undefined && /^[0-9]+$/.test(next))
      this.#markers.set(tp, { next: BigInt(next), epoch: epochOf(headers) });
  }

  /**
   * handoff is where the history partition of a restored state partition is read from: the last marker's offset, else
   * the history's high-water mark at assignment (fallback); the marker's epoch becomes the partition's floor.
   */
  handoff(state: TopicPartition, fallback: string): Resume {
    const history = this.historyOf(state);
    const marker = this.#markers.get(state);
    if (marker !== undefined) this.#floors.set(history, marker.epoch);
    return { ...history, offset: String(marker?.next ?? BigInt(fallback)) };
  }

  /**
   * admit tells why a history record is refused (its epoch is older than its partition's newest), or undefined when
   * it is not, its epoch then the partition's newest.
   */
  admit(tp: TopicPartition, headers: Readonly<Record<string, string>>): string | undefined {
    const epoch = epochOf(headers);
    const floor = this.#floors.get(tp) ?? 0n;
    if (epoch < floor)
      return `watcher epoch ${epoch} is older than the partition's ${floor}: a record of a watcher a newer one replaced (a zombie)`;
    this.#floors.set(tp, epoch);
    return undefined;
  }
}
