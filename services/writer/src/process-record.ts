import type { MutationResult } from '@kcm-bus/runtime/mutation/mutation-result.ts';
import type { Mutation } from '@kcm-bus/runtime/mutation/mutation.ts';
import { isMutationError, validateMutation } from '@kcm-bus/runtime/mutation/validate-mutation.ts';

/** ConsumedMutation is one record of kcm.mutations as the writer schedules it. */
export type ConsumedMutation = {
  readonly partition: number;
  readonly offset: number;
  /** The scheduling key: the record key (the target object), or the offset itself for a record without one. */
  readonly key: string;
  readonly value: Buffer | null;
};

/** RecordPorts are what handling one record needs: decoding, applying and the two ways out. */
export type RecordPorts = {
  readonly decode: (bytes: Buffer) => Promise<unknown>;
  readonly apply: (m: Mutation) => Promise<MutationResult>;
  readonly publishResult: (record: ConsumedMutation, result: MutationResult) => Promise<void>;
  readonly deadLetter: (record: ConsumedMutation, reason: string) => Promise<void>;
};

/**
 * processRecord carries one record to its way out: a record that cannot be decoded, or is not a complete
 * mutation, goes to the dead-letter topic with the reason; every mutation gets a result, whatever its outcome.
 * Only a failure to publish rejects (the record then stays uncommitted and is retried).
 */
export async function processRecord(record: ConsumedMutation, ports: RecordPorts): Promise<void> {
  if (record.value === null) return ports.deadLetter(record, 'a tombstone is not a mutation');
  let value: unknown;
  try {
    value = await ports.decode(record.value);
  } catch (err) {
    return ports.deadLetter(record, `undecodable: ${err instanceof Error ? err.message : String(err)}`);
  }
  const mutation = validateMutation(value);
  if (isMutationError(mutation)) return ports.deadLetter(record, `not a mutation: ${mutation.error}`);
  await ports.publishResult(record, await ports.apply(mutation));
}
