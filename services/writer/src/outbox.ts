import {
  Batcher,
  type OutgoingRecord,
  type Publisher,
  MAX_REQUEST_BYTES,
  OversizedRecordError,
  recordBytes,
} from '@kcm-bus/runtime/bus/index.ts';
import { DEAD_LETTER_HEADERS } from '@kcm-bus/runtime/faults/index.ts';

/** TRUNCATED_HEADER marks a dead letter cut to fit MAX_REQUEST_BYTES; its value says the original sizes. */
export const TRUNCATED_HEADER = DEAD_LETTER_HEADERS.truncated;

/** MAX_DEAD_LETTER_KEY_BYTES is what is kept of an oversized dead letter's key (a key is a name, not a payload). */
const MAX_DEAD_LETTER_KEY_BYTES = 1024;

/** Outgoing is a record for one of the writer's topics. */
export type Outgoing = { readonly topic: string; readonly record: OutgoingRecord };

/** checkFits returns a record that fits MAX_REQUEST_BYTES and refuses a larger one with a clear OversizedRecordError. */
export function checkFits(item: Outgoing): Outgoing {
  const bytes = recordBytes(item.record);
  if (bytes > MAX_REQUEST_BYTES)
    throw new OversizedRecordError(
      `a record of ${bytes} bytes for ${item.topic} exceeds the ${MAX_REQUEST_BYTES}-byte limit (the broker's message.max.bytes)`,
    );
  return item;
}

/**
 * fitDeadLetter cuts a dead letter that would not fit MAX_REQUEST_BYTES: its key to 1 KiB, its value to what is left,
 * with TRUNCATED_HEADER saying the original sizes; its reason and source headers are kept whole.
 */
export function fitDeadLetter(r: OutgoingRecord): OutgoingRecord {
  if (recordBytes(r) <= MAX_REQUEST_BYTES) return r;
  const keyBytes = Buffer.from(r.key);
  const key = keyBytes.subarray(0, MAX_DEAD_LETTER_KEY_BYTES).toString('utf8');
  const note = `value ${r.value?.length ?? 0} bytes, key ${keyBytes.length} bytes: cut to fit ${MAX_REQUEST_BYTES} bytes`;
  const headers = { ...r.headers, [TRUNCATED_HEADER]: note };
  const room = MAX_REQUEST_BYTES - recordBytes({ key, value: null, headers });
  return { ...r, key, value: r.value && r.value.subarray(0, Math.max(room, 0)), headers };
}

/**
 * Outbox publishes the writer's results and dead letters: many per round trip (the runtime's Batcher, one request
 * in flight); the publisher splits them into requests under the broker's limit, and a record over it is refused
 * or cut before it is queued, so one large record cannot wedge the producer.
 */
export class Outbox {
  readonly #batcher: Batcher<Outgoing>;

  constructor(publisher: Pick<Publisher, 'sendTopics'>) {
    this.#batcher = new Batcher(async (items) => {
      await publisher.sendTopics(byTopic(items));
    });
  }

  /** push resolves once the record is acknowledged; it must fit (checkFits, fitDeadLetter). */
  push(item: Outgoing): Promise<void> {
    return this.#batcher.push(checkFits(item));
  }
}

function byTopic(items: readonly Outgoing[]): { topic: string; records: OutgoingRecord[] }[] {
  const topics = new Map<string, OutgoingRecord[]>();
  for (const { topic, record } of items) {
    const records = topics.get(topic);
    if (records) records.push(record);
    else topics.set(topic, [record]);
  }
  return [...topics].map(([topic, records]) => ({ topic, records }));
}
