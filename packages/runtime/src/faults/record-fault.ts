import { keptFor } from '../bus/record-limit.ts';
import { RegistryError } from '../registry/registry.ts';

/**
 * RecordFault says what to do with a record that could not be handled: `transient` causes (the schema registry or
 * Redis unreachable, a registry 5xx or 429) are retried with backoff and never dead-lettered; `poison` causes (bytes
 * that are not our wire format, a schema id the registry does not know, Avro that does not decode, a value that is
 * not a valid record) can never succeed, so the record goes to the dead-letter topic and processing goes on.
 */
export type RecordFault = 'transient' | 'poison';

/** TRANSIENT_CODES are the Node error codes of a peer that is down or unreachable (registry, Redis, broker). */
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** TransientError marks a failure the caller knows to be passing (e.g. a command timeout of the expectations store). */
export class TransientError extends Error {}

/**
 * classifyFault reads an error thrown while handling a record: a registry answer of 5xx or 429, a fetch that
 * failed, a socket error anywhere in the cause chain, or a TransientError is transient; anything else (including a
 * registry 404 for an unknown schema id) is poison.
 */
export function classifyFault(err: unknown): RecordFault {
  for (const e of causeChain(err)) {
    if (e instanceof TransientError) return 'transient';
    if (e instanceof RegistryError) return e.status >= 500 || e.status === 429 ? 'transient' : 'poison';
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return 'transient';
    if (e instanceof TypeError && e.message === 'fetch failed') return 'transient';
  }
  return 'poison';
}

/** causeChain is an error and the errors in its `cause`, outermost first, at most 5 deep (clients wrap what they retried). */
export function causeChain(err: unknown): Error[] {
  const chain: Error[] = [];
  for (let e: unknown = err; e instanceof Error && chain.length < 5; e = e.cause) chain.push(e);
  return chain;
}

/** deadLetterTopic is where the poison records of `topic` go (`kcm.mutations` → `kcm.mutations.dlq`). */
export function deadLetterTopic(topic: string): string {
  return `${topic}.dlq`;
}

/**
 * DEAD_LETTER_CONFIGS are a dead-letter topic's configs: kept a week for an operator to look at, then deleted; a dead
 * letter as large as the record it holds (keptFor).
 */
export const DEAD_LETTER_CONFIGS: Readonly<Record<string, string>> = keptFor(7 * 86_400_000);

/** DEAD_LETTER_HEADERS name the headers a dead letter carries: why, where it came from, and who gave up on it. */
export const DEAD_LETTER_HEADERS = {
  reason: 'kcm-bus.reason',
  source: 'kcm-bus.source',
  consumer: 'kcm-bus.consumer',
  truncated: 'kcm-bus.truncated',
} as const;

/** deadLetterHeaders are a dead letter's headers for a record of topic/partition/offset that `consumer` could not handle. */
export function deadLetterHeaders(
  source: { readonly topic: string; readonly partition: number; readonly offset: string | number },
  reason: string,
  consumer: string,
): Record<string, string> {
  return {
    [DEAD_LETTER_HEADERS.reason]: reason.slice(0, 2000),
    [DEAD_LETTER_HEADERS.source]: `${source.topic}/${source.partition}/${source.offset}`,
    [DEAD_LETTER_HEADERS.consumer]: consumer,
  };
}
