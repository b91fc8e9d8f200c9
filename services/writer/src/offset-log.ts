/**
 * OffsetLog tracks one partition's records from consumption until their results are published, and answers the
 * offset that may be committed: the smallest one not yet done, or one past the last record when all are done.
 * Offsets normally arrive in increasing order (as a consumer reads them; gaps of compacted or transaction-marker
 * offsets are fine), but a redelivery (a failed commit, a rejoin) brings earlier offsets again: an offset still
 * outstanding is the same record and counts once; one already done is outstanding again until done again.
 */
export class OffsetLog {
  readonly #outstanding: number[] = [];
  readonly #done = new Set<number>();
  #head = 0;
  #next: number | undefined;

  /**
   * add registers a consumed offset, a redelivered one included; false when it was outstanding already (the same
   * record, fetched again: its first delivery will complete it).
   */
  add(offset: number): boolean {
    if (this.#next === undefined || offset >= this.#next) {
      this.#outstanding.push(offset);
      this.#next = offset + 1;
      return true;
    }
    const at = this.#indexOf(offset);
    if (this.#outstanding[at] === offset) return false;
    this.#outstanding.splice(at, 0, offset);
    return true;
  }

  /** complete marks an outstanding offset's result published and drops the done prefix; others are ignored. */
  complete(offset: number): void {
    if (this.#outstanding[this.#indexOf(offset)] !== offset) return;
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

  /** #indexOf is where offset is, or would go, among the outstanding offsets (a binary search: they are sorted). */
  #indexOf(offset: number): number {
    let [lo, hi] = [this.#head, this.#outstanding.length];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#outstanding[mid]! < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
