import type { TopicPartition } from '../bus/bus.ts';
import { murmur2 } from '../partition/murmur2.ts';
import { PartitionMap } from './partition-map.ts';

/**
 * Inventory sums up a set of keys: how many, and the XOR of a 32-bit hash of each (order-free, O(1) per change),
 * so that two readers of one partition can tell at the same record whether they hold the same live objects (a
 * ghost or a lost object changes both figures, but for a 1 in 2^32 chance of the digest alone). The caller says
 * which changes add or remove a key: added only for a key it did not hold, removed only for one it did.
 */
export class Inventory {
  #count = 0;
  #digest = 0;

  added(key: string): void {
    this.#count++;
    this.#digest = (this.#digest ^ murmur2(Buffer.from(key))) >>> 0;
  }

  removed(key: string): void {
    this.#count--;
    this.#digest = (this.#digest ^ murmur2(Buffer.from(key))) >>> 0;
  }

  get count(): number {
    return this.#count;
  }

  /** header is the inventory as INVENTORY_HEADER carries it: `<count>:<digest>`. */
  header(): string {
    return `${this.#count}:${this.#digest.toString(16).padStart(8, '0')}`;
  }
}

/** KeyInventory is an Inventory that keeps its keys, for a reader that has no other record of which it holds. */
export class KeyInventory {
  readonly #keys = new Set<string>();
  readonly inventory = new Inventory();

  /** applied records a key as live (a no-op when it already was). */
  applied(key: string): void {
    if (this.#keys.has(key)) return;
    this.#keys.add(key);
    this.inventory.added(key);
  }

  /** deleted records a key as gone (a no-op when it was not live). */
  deleted(key: string): void {
    if (!this.#keys.delete(key)) return;
    this.inventory.removed(key);
  }
}

/** Disagreement is what a member held of a partition when the watcher's inventory at the same record said otherwise. */
export type Disagreement = {
  readonly topic: string;
  readonly partition: number;
  readonly watcher: string;
  readonly held: string;
};

/**
 * Inventories are a member's KeyInventory of every input partition it reads, fed the records it applied (an Applied
 * adds its key, a Deleted or tombstone removes it), and compared with the watcher's at each watermark record that
 * carries one (INVENTORY_HEADER): both are as of the same record, so any difference is a divergence, never a delay.
 * A partition reports once when it starts to disagree, and again only after it agreed in between.
 */
export class Inventories {
  readonly #partitions = new PartitionMap<KeyInventory>();
  readonly #disagreeing = new PartitionMap<true>();

  /** reset forgets what was read of the partitions that restore again (a kept one reads on from where it was). */
  reset(kept: (partition: number) => boolean): void {
    this.#partitions.keepPartitions(kept);
    this.#disagreeing.keepPartitions(kept);
  }

  /** disagrees: an input's partition of this number disagreed with the watcher at its latest check. */
  disagrees(partition: number): boolean {
    return this.#disagreeing.hasPartition(partition);
  }

  /** applied and deleted record a change read on a partition of `topic` (an input's name, its state topic). */
  applied(topic: string, partition: number, key: string): void {
    this.#of({ topic, partition }).applied(key);
  }

  deleted(topic: string, partition: number, key: string): void {
    this.#of({ topic, partition }).deleted(key);
  }

  /** check compares the partition with the watcher's inventory; a Disagreement when it starts to differ. */
  check(topic: string, partition: number, watcher: string): Disagreement | undefined {
    const tp = { topic, partition };
    const held = this.#of(tp).inventory.header();
    if (held === watcher) {
      this.#disagreeing.delete(tp);
      return undefined;
    }
    if (this.#disagreeing.has(tp)) return undefined;
    this.#disagreeing.set(tp, true);
    return { topic, partition, watcher, held };
  }

  #of(tp: TopicPartition): KeyInventory {
    let inventory = this.#partitions.get(tp);
    if (inventory === undefined) this.#partitions.set(tp, (inventory = new KeyInventory()));
    return inventory;
  }
}
