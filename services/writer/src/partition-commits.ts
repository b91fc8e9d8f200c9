/** CommitPorts are what PartitionCommits commits through: where each partition may commit to, and the commit. */
export type CommitPorts = {
  /** committable is the partition's next offset to commit (every record before it has its result published). */
  readonly committable: (partition: number) => number | undefined;
  /** pending counts the partition's records consumed and not yet done. */
  readonly pending: (partition: number) => number;
  readonly commit: (partition: number, offset: number) => Promise<void>;
};

/**
 * PartitionCommits commit each partition's progress as its records finish, not as batches do: a partition whose
 * last pending record finished commits at once (an idle writer is never behind), a busy one at most once per
 * intervalMs (one commit request a second, not one per record). A commit that fails is retried by the next one;
 * offsets only move forward. Mirrors what a Java consumer's commitAsync from a completion callback does.
 */
export class PartitionCommits {
  readonly #ports: CommitPorts;
  readonly #committed = new Map<number, number>();
  readonly #dirty = new Set<number>();
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(ports: CommitPorts, intervalMs: number) {
    this.#ports = ports;
    this.#timer = setInterval(() => void this.flush(), intervalMs);
    this.#timer.unref();
  }

  /** done notes that a record of the partition finished: committed now if none of it is pending, else soon. */
  done(partition: number): void {
    this.#dirty.add(partition);
    if (this.#ports.pending(partition) === 0) void this.#commit(partition);
  }

  /** forget drops a partition this member no longer owns (its next owner commits it). */
  forget(partition: number): void {
    this.#dirty.delete(partition);
    this.#committed.delete(partition);
  }

  /** flush commits every partition that advanced since its last commit. */
  async flush(): Promise<void> {
    await Promise.all([...this.#dirty].map((partition) => this.#commit(partition)));
  }

  /** stop ends the timer after a last flush. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }

  async #commit(partition: number): Promise<void> {
    this.#dirty.delete(partition);
    const offset = this.#ports.committable(partition);
    if (offset === undefined || offset <= (this.#committed.get(partition) ?? -1)) return;
    this.#committed.set(partition, offset);
    try {
      await this.#ports.commit(partition, offset);
    } catch {
      if (this.#committed.get(partition) === offset) this.#committed.delete(partition);
      this.#dirty.add(partition);
    }
  }
}
