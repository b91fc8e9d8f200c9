import { objectNameOf } from '../mutation/mutation-id.ts';
import type { MutationResult } from '../mutation/mutation-result.ts';
import type { Mutation, MutationCause } from '../mutation/mutation.ts';
import { HELD_RETRY_MS } from '../controller/read-your-writes.ts';
import type { FakeClock } from '../workqueue/fake-clock.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';

/** Answer hands a result to the replayed Controller (Controller.onResult); live: its failure is to be reported. */
export type Answer = (result: MutationResult, cause: MutationCause, live: boolean) => void;

type Waiting = { readonly object: string; readonly mutation: Mutation; readonly timer: unknown };

/** STAND_IN_CAUSE is the cause of the results the replay makes up (Applied ones: no sync reports them). */
const STAND_IN_CAUSE: MutationCause = { topic: '~replay', partition: 0, offset: 0 };

/**
 * ReplayWriter stands in for the writer in a replay, where nothing is sent. A write the history's results answer
 * (the deployed controller made it under the same id) gets that result: at its time when it is still to come, at
 * once when the history already brought it (its failure then not reported twice). Any other write is taken as done,
 * answered Applied with its version unknown: a write of a named object when the history next shows that object (the
 * deployed controller's own write of it) or after HELD_RETRY_MS, so the key's read-your-writes lets it sync again
 * when the running controller's would have, neither at once nor only after HOLD_LIMIT_MS; a create by generateName at
 * once, as the history cannot show the name the replay gave it (the key's expectations hold its next creates).
 */
export class ReplayWriter {
  readonly #clock: FakeClock;
  readonly #answer: Answer;
  /** #coming: the ids of results the history holds and the replay has not fed yet. */
  readonly #coming: Set<string>;
  /** #fed: the results the replay fed, by id, with their causes. */
  readonly #fed = new Map<string, { readonly result: MutationResult; readonly cause: MutationCause }>();
  /** #waiting: per object (`resource namespace/name`), the writes taken as done once it shows. */
  readonly #waiting = new Map<string, Waiting[]>();

  constructor(recorded: Iterable<string>, clock: FakeClock, answer: Answer) {
    this.#coming = new Set(recorded);
    this.#clock = clock;
    this.#answer = answer;
  }

  /** published takes the writes of one sync (events are not waited for, as the Controller does not). */
  published(mutations: readonly Mutation[]): void {
    for (const m of mutations) {
      if (m.verb === 'RecordEvent' || this.#coming.has(m.id)) continue;
      const fed = this.#fed.get(m.id);
      if (fed !== undefined) this.#answer(fed.result, fed.cause, false);
      else if (m.target.name === '') this.#answer(applied(m, this.#clock.now()), STAND_IN_CAUSE, true);
      else this.#wait(m);
    }
  }

  /** resulted: the history's result of this id was fed to the Controller. */
  resulted(result: MutationResult, cause: MutationCause): void {
    this.#coming.delete(result.mutationId);
    this.#fed.set(result.mutationId, { result, cause });
  }

  /** seen: the history showed a record of the object; the writes waiting for it are done. */
  seen(resource: string, key: string): void {
    for (const w of this.#waiting.get(`${resource} ${key}`) ?? []) this.#done(w);
  }

  #wait(m: Mutation): void {
    const object = `${m.target.resource} ${objectKey({ namespace: m.target.namespace, name: objectNameOf(m) })}`;
    const w: Waiting = { object, mutation: m, timer: this.#clock.setTimeout(() => this.#done(w), HELD_RETRY_MS) };
    this.#waiting.set(object, [...(this.#waiting.get(object) ?? []), w]);
  }

  #done(w: Waiting): void {
    this.#clock.clearTimeout(w.timer);
    const left = (this.#waiting.get(w.object) ?? []).filter((other) => other !== w);
    if (left.length > 0) this.#waiting.set(w.object, left);
    else this.#waiting.delete(w.object);
    this.#answer(applied(w.mutation, this.#clock.now()), STAND_IN_CAUSE, true);
  }
}

/** applied is the result of a write the replay takes as done: Applied at `at`, the object's version unknown. */
function applied(m: Mutation, at: number): MutationResult {
  return {
    mutationId: m.id,
    controller: m.controller,
    verb: m.verb,
    target: m.target,
    outcome: 'Applied',
    status: 200,
    reason: null,
    message: 'taken as done by the replay',
    name: objectNameOf(m),
    resourceVersion: null,
    uid: null,
    attempts: 0,
    appliedAt: new Date(at).toISOString(),
    reconcileKey: m.reconcileKey,
  };
}
