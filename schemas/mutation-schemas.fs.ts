import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** MUTATION_TOPICS name the writer's topics: commands in, results out, and the dead letters. */
export const MUTATION_TOPICS = {
  mutations: 'kcm.mutations',
  results: 'kcm.mutation-results',
  deadLetters: 'kcm.mutations.dlq',
} as const;

/** loadMutationSchemas reads the committed value schemas of kcm.mutations and kcm.mutation-results. */
export function loadMutationSchemas(): { readonly mutation: object; readonly result: object } {
  const read = (file: string): object =>
    JSON.parse(readFileSync(join(import.meta.dirname, 'mutation', file), 'utf8')) as object;
  return { mutation: read('Mutation.avsc'), result: read('MutationResult.avsc') };
}
