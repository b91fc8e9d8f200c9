import { createHash } from 'node:crypto';
import type { Mutation, MutationCause } from './mutation.ts';

/**
 * MutationIdInput is what makes a mutation what it is: the controller, the key it reconciled, the input records
 * that reconcile had consumed, which sync of the key since those (attempt, 0 for the first) and the mutation's
 * position in that reconcile's output.
 */
export type MutationIdInput = {
  readonly controller: string;
  readonly key: string;
  readonly cause: readonly MutationCause[];
  readonly attempt: number;
  readonly seq: number;
};

/**
 * mutationId is a deterministic id (32 hex digits of a SHA-256) of a mutation's origin. reconcile is pure, so a
 * reconciler that crashes after publishing and replays the same input emits the same ids; the writer derives
 * created names from the id (generatedName), and a replayed Create meets AlreadyExists, which is AlreadyDone.
 */
export function mutationId(input: MutationIdInput): string {
  const cause = input.cause.map((c) => `${c.topic}:${c.partition}:${c.offset}`).join(',');
  // A first attempt hashes without the attempt: the ids of records written before attempts counted stay the same.
  const parts = [input.controller, input.key, cause, input.seq, ...(input.attempt === 0 ? [] : [input.attempt])];
  const text = JSON.stringify(parts);
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** NAME_ALPHABET is apimachinery's utilrand alphabet: no vowels (no words), no look-alikes (0/o, 1/l). */
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * GENERATED_SUFFIX_LENGTH is 10, not the apiserver's 5 (prefix cut at 53, not 58); the alphabet is the same. Our
 * suffix is fixed per mutation, so a collision is not retried as the apiserver retries generateName: it is misread
 * as AlreadyDone (no SuccessfulCreate, a pod missing until a later sync) and two Creates of one sync may name the
 * same expected pod. At 5 characters (27^5 ≈ 1.4·10^7) one RC's 1000 pods collide with p ≈ 3.4%, a 500-pod batch
 * with p ≈ 0.9%; at 10 (27^10 ≈ 2·10^14) p ≈ 2.5·10^-9 at 1000 pods, ≈ 2.5·10^-3 at a million.
 */
export const GENERATED_SUFFIX_LENGTH = 10;

/** MAX_GENERATED_NAME_LENGTH is names.MaxGeneratedNameLength's 63, the length a generated name is cut to. */
const MAX_GENERATED_NAME_LENGTH = 63;

/**
 * generatedName is the name the writer gives an object created with metadata.generateName only: the prefix, cut
 * so the result fits 63 characters, plus a suffix derived from the mutation id, so the same mutation always names
 * the same object. Mirrors names.SimpleNameGenerator.GenerateName with a hash instead of utilrand.String.
 */
export function generatedName(generateName: string, id: string): string {
  const base = generateName.slice(0, MAX_GENERATED_NAME_LENGTH - GENERATED_SUFFIX_LENGTH);
  const digest = createHash('sha256').update(id).digest();
  let suffix = '';
  for (let i = 0; i < GENERATED_SUFFIX_LENGTH; i++) suffix += NAME_ALPHABET[digest[i]! % NAME_ALPHABET.length];
  return base + suffix;
}

/**
 * objectNameOf is the name of the object a mutation writes: its body's metadata.name, else its target's name, else
 * (a Create with metadata.generateName only) the generatedName the writer gives it.
 */
export function objectNameOf(m: Pick<Mutation, 'id' | 'body' | 'target'>): string {
  const meta = m.body
    ? ((JSON.parse(m.body) as { metadata?: { name?: unknown; generateName?: unknown } }).metadata ?? {})
    : {};
  if (typeof meta.name === 'string' && meta.name !== '') return meta.name;
  if (m.target.name !== '') return m.target.name;
  return generatedName(typeof meta.generateName === 'string' ? meta.generateName : '', m.id);
}
