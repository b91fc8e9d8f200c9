import assert from 'node:assert/strict';
import type { Mutation, MutationResult } from '@kcm-bus/runtime/mutation/index.ts';
import { applyMutations, type Cluster, failuresOf, type Kinds } from './cluster.fixture.ts';

/** Reconciled is the part of a reconcile's result the convergence check reads: the mutations and the error. */
export type Reconciled = { readonly mutations: readonly Mutation[]; readonly error?: string };

/** ConvergeOptions: the clock the writes happen at, and how many rounds may write before the check fails (20). */
export type ConvergeOptions = { readonly now: Date; readonly maxRounds?: number };

/**
 * converge is the convergence check: reconcile key, apply the mutations to the cluster, reconcile again (passing
 * the previous round's Failed and Conflict results) until a reconcile returns no mutations and no error; fails
 * after maxRounds. Returns the number of rounds that wrote something.
 */
export function converge<K extends Kinds>(
  c: Cluster<K>,
  key: string,
  reconcile: (key: string, failures: readonly MutationResult[]) => Reconciled,
  o: ConvergeOptions,
): number {
  const maxRounds = o.maxRounds ?? 20;
  let failures: MutationResult[] = [];
  for (let round = 0; round < maxRounds; round++) {
    const result = reconcile(key, failures);
    if (result.mutations.length === 0 && result.error === undefined) return round;
    failures = failuresOf(applyMutations(c, result.mutations, o.now).results);
  }
  assert.fail(`${key} did not converge in ${maxRounds} rounds`);
}

/** verbs counts a result's mutations by verb, e.g. { Create: 2, RecordEvent: 2 }. */
export function verbs(result: Pick<Reconciled, 'mutations'>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of result.mutations) counts[m.verb] = (counts[m.verb] ?? 0) + 1;
  return counts;
}
