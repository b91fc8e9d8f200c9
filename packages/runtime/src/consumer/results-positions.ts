/**
 * ResultsPositions are where a member reads each of its results partitions on at a join: the next offset it has not
 * read, kept while the partition stays in its assignments. Results are otherwise read from the group's committed
 * offset, and a member that lost its session and rejoined (kafkajs's UNKNOWN_MEMBER_ID) gets its partitions back
 * after another member held them for a moment and committed past the results of this member's own writes: the keys
 * that waited for them then waited the whole hold limit (HOLD_LIMIT_MS) before they synced, a chaos cycle settling
 * 115 s after its fault. Reading on from its own position, it reads those results itself (not live, as any result
 * read again). The Java consumer would call such partitions lost (onPartitionsLost): here only their results are.
 */
export class ResultsPositions {
  readonly #next = new Map<number, bigint>();

  /** assigned starts an assignment: the positions of partitions assigned again stay, the others are forgotten. */
  assigned(partitions: Iterable<number>): void {
    const now = new Set(partitions);
    for (const partition of this.#next.keys()) if (!now.has(partition)) this.#next.delete(partition);
  }

  /** read: the result at this offset of the partition was handled. */
  read(partition: number, offset: string): void {
    const next = BigInt(offset) + 1n;
    if (next > (this.#next.get(partition) ?? 0n)) this.#next.set(partition, next);
  }

  /** from is where to read the partition from at a join: this member's next offset, or undefined (the committed one). */
  from(partition: number): string | undefined {
    return this.#next.get(partition)?.toString();
  }
}
