/**
 * OffsetLog tracks one partition's records from consumption until their results are published, and answers the
 * offset that may be committed: the smallest one not yet done, or one past the last record when all are done.
 * Offsets must arrive in increasing order (as a consumer reads them); gaps (compacted or transaction-marker offsets)
 * are fine.
 */
export class OffsetLog {
  readonly #outstanding: number[] = [];
  readonly #done = new Set<number>();
  #head = 0;
  #next: number | undefined;

  /** add registers a consumed offset; it throws when offsets go backwards (a seek must start a new OffsetLog). */
  add(offset: number): void {
    if (this.#next !== undefined && offset < this.#next) {
      throw new RangeError(`offset ${offset} arrived after ${this.#next - 1}: offsets of a partition must increase`);
    }
    this.#outstanding.push(offset);
    this.#next = offset + 1;
  }

  /** complete marks an offset's result published and drops the done prefix. */
  complete(offset: number): void {
    this.#done.add(offset);
    while (this.#head < this.#outstanding.length && this.#done.delete(this.#outstanding[this.#head]!)) this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#outstanding.length) {
      this.#outstanding.splice(0, this.#head);
      this.#head = 0;
    }
  }

  /** committable is the next offset to commit (Kafka's convention: last done + 1), undefined before any add. */
  committable(): number | undefined {
    return this.#outstanding[this.#head] ?? this.#next;
  }

  /** pending counts offsets added and not yet complete. */
  pending(): number {
    return this.#outstanding.length - this.#head;
  }
}
