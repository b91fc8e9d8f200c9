import { type MutationResult, NAMESPACE_TERMINATING, writeFailed } from './mutation-result.ts';
import type { SlowStart } from './mutation.ts';

/**
 * SLOW_START_SKIPPED is the reason of the Refused result of a run's member that was never attempted because a member
 * of an earlier batch failed (upstream's slowStartBatch returns; its caller counts the rest as skipped).
 */
export const SLOW_START_SKIPPED = 'SlowStartSkipped';

/**
 * slowStartBatchOf is the batch of a run's index-th member, as controller_utils.go slowStartBatch forms them from
 * SlowStartInitialBatchSize = 1: batch 0 is member 0, batch 1 members 1-2, batch 2 members 3-6, batch k members
 * 2^k - 1 to 2^(k+1) - 2.
 */
export function slowStartBatchOf(index: number): number {
  return 31 - Math.clz32(index + 1);
}

/**
 * tookEffect is upstream's slowStartBatch callback returning nil: the create happened, was already done, or met a
 * terminating namespace (manageReplicas's callback swallows that error). Any other result fails its batch.
 */
export function tookEffect(r: Pick<MutationResult, 'outcome' | 'reason'>): boolean {
  return !writeFailed(r) || r.reason === NAMESPACE_TERMINATING;
}

type Member = {
  readonly batch: number;
  readonly done: Promise<boolean>;
  readonly finish: (succeeded: boolean) => void;
  /** succeeded is the member's outcome once it finished. */
  succeeded?: boolean;
};

/** MAX_OPEN_RUNS bounds the runs a gate remembers: a run whose last member never comes is forgotten, oldest first. */
const MAX_OPEN_RUNS = 1024;

/**
 * SlowStartGate runs slow-start members as slowStartBatch does, across records: a member waits until every member of
 * the earlier batches of its run that this gate has seen has finished, and is skipped when one of them failed (a
 * skipped member counts as failed for the later batches). Members arrive in index order (one partition, published
 * in one send); one the gate never saw (applied before a restart) does not hold the others.
 */
export class SlowStartGate {
  readonly #runs = new Map<string, Map<number, Member>>();

  /**
   * admit answers true when the member may be applied, false when it is skipped; finished must follow either way.
   * The answer is at once, not a promise, when every earlier member it saw has finished: a member that need not wait
   * goes on in the same turn as a mutation that is no member, so the writer's requests take their controller's
   * budget tokens in the order they were published (a sync's status update does not take the token of its create).
   */
  admit(s: SlowStart): boolean | Promise<boolean> {
    const members = this.#run(s.run);
    const batch = slowStartBatchOf(s.index);
    const earlier = [...members.values()].filter((m) => m.batch < batch);
    let finish: (succeeded: boolean) => void = () => undefined;
    const done = new Promise<boolean>((resolve) => (finish = resolve));
    members.set(s.index, { batch, done, finish });
    if (earlier.every((m) => m.succeeded !== undefined)) return earlier.every((m) => m.succeeded);
    return Promise.all(earlier.map((m) => m.done)).then((outcomes) => outcomes.every(Boolean));
  }

  /** finished records a member's outcome (succeeded: its create took effect) and forgets the run after its last member. */
  finished(s: SlowStart, succeeded: boolean): void {
    const member = this.#runs.get(s.run)?.get(s.index);
    if (member) member.succeeded = succeeded;
    member?.finish(succeeded);
    if (s.index === s.size - 1) this.#runs.delete(s.run);
  }

  #run(run: string): Map<number, Member> {
    const known = this.#runs.get(run);
    if (known) return known;
    const members = new Map<number, Member>();
    this.#runs.set(run, members);
    if (this.#runs.size > MAX_OPEN_RUNS) this.#runs.delete(this.#runs.keys().next().value!);
    return members;
  }
}
