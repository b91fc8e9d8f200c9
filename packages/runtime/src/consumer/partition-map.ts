import type { TopicPartition } from '../bus/bus.ts';

/**
 * PartitionMap is a map keyed by a topic's partition: what a member holds of each partition it reads, forgotten
 * partition by partition when an assignment keeps some and not others (keepPartitions).
 */
export class PartitionMap<V> {
  readonly #entries = new Map<string, { readonly partition: number; value: V }>();

  get(tp: TopicPartition): V | undefined {
    return this.#entries.get(keyOf(tp))?.value;
  }

  has(tp: TopicPartition): boolean {
    return this.#entries.has(keyOf(tp));
  }

  set(tp: TopicPartition, value: V): void {
    this.#entries.set(keyOf(tp), { partition: tp.partition, value });
  }

  delete(tp: TopicPartition): void {
    this.#entries.delete(keyOf(tp));
  }

  /** hasPartition: some topic's partition of this number has an entry. */
  hasPartition(n: number): boolean {
    return [...this.#entries.values()].some((e) => e.partition === n);
  }

  clear(): void {
    this.#entries.clear();
  }

  /** keepPartitions forgets every entry of a partition number the predicate does not keep. */
  keepPartitions(kept: (partition: number) => boolean): void {
    for (const [key, entry] of this.#entries) if (!kept(entry.partition)) this.#entries.delete(key);
  }
}

const keyOf = (tp: TopicPartition): string => `${tp.topic}/${tp.partition}`;
