import type { BusRecord } from '@kcm-bus/runtime/bus/index.ts';
import {
  type MutationResult,
  type Mutation,
  isMutationError,
  validateMutation,
} from '@kcm-bus/runtime/mutation/index.ts';
import { AbandonedError } from './executor.ts';
import { failedResult } from './result.ts';

/** ConsumedMutation is one record of kcm.mutations as the writer schedules it. */
export type ConsumedMutation = {
  readonly partition: number;
  readonly offset: number;
  /** The scheduling key: the record key (the target object), or the offset itself for a record without one. */
  readonly key: string;
  /** The scheduling lane: the controller the record claims to be signed by (checked later, with the signature). */
  readonly lane: string;
  /** record is the record as consumed, for its dead letter. */
  readonly record: BusRecord;
};

/**
 * RecordPorts are what handling one record needs. guarded runs a step under the runtime's RecordGuard: a transient
 * fault (the registry unreachable) is retried with backoff, a poison one sends the record to the dead-letter topic
 * (and guarded answers undefined). The other ports decode, verify the signature, apply, encode a result (checked
 * to fit the broker's limit) and publish it; now is the wall clock (RFC 3339).
 */
export type RecordPorts = {
  readonly guarded: <T>(record: ConsumedMutation, step: () => Promise<T>) => Promise<T | undefined>;
  readonly decode: (bytes: Buffer) => Promise<unknown>;
  /** verify throws (ForgedRecordError) unless the record is signed by the controller the mutation names. */
  readonly verify: (record: ConsumedMutation, m: Mutation) => void;
  readonly apply: (m: Mutation) => Promise<MutationResult>;
  readonly encodeResult: (record: ConsumedMutation, result: MutationResult) => Promise<Buffer>;
  readonly publishResult: (record: ConsumedMutation, result: MutationResult, bytes: Buffer) => Promise<void>;
  readonly now: () => string;
};

/** InvalidRecordError says why a record is not a mutation (a tombstone, a missing or wrong part): a poison fault. */
export class InvalidRecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidRecordError';
  }
}

/**
 * processRecord carries one record to its way out, and nothing a record holds can make it throw: a record that is
 * not a decodable, valid mutation signed by its controller goes to the dead-letter topic with the reason; every mutation gets a result,
 * whatever its outcome (an unexpected failure while applying is a Failed result). It rejects only when the record
 * is abandoned (the writer stops, its partition was revoked) or a publish fails: the record then stays uncommitted.
 */
export async function processRecord(record: ConsumedMutation, ports: RecordPorts): Promise<void> {
  const mutation = await ports.guarded(record, () => decodeMutation(record, ports));
  if (mutation === undefined) return;
  const result = await applied(mutation, ports);
  const bytes = await ports.guarded(record, () => ports.encodeResult(record, result));
  if (bytes !== undefined) await ports.publishResult(record, result, bytes);
}

async function decodeMutation(record: ConsumedMutation, ports: RecordPorts): Promise<Mutation> {
  const value = record.record.value;
  if (value === null) throw new InvalidRecordError('a tombstone is not a mutation');
  const mutation = validateMutation(await ports.decode(value));
  if (isMutationError(mutation)) throw new InvalidRecordError(`not a mutation: ${mutation.error}`);
  ports.verify(record, mutation);
  return mutation;
}

async function applied(m: Mutation, ports: RecordPorts): Promise<MutationResult> {
  try {
    return await ports.apply(m);
  } catch (err) {
    if (err instanceof AbandonedError) throw err;
    return failedResult(
      m,
      `the writer failed applying it: ${err instanceof Error ? err.message : String(err)}`,
      ports.now(),
    );
  }
}
