import { Batcher } from '@kcm-bus/runtime/bus/batcher.ts';
import type { OutgoingRecord, Publisher } from '@kcm-bus/runtime/bus/bus.ts';
import { DEAD_LETTER_HEADERS } from '@kcm-bus/runtime/faults/record-fault.ts';

/**
 * MAX_RECORD_BYTES is what the writer puts in one produce request at most: the broker refuses a record batch over
 * its message.max.bytes (1048588 by default, not retriable), so the writer stays under it with room for the
 * batch's own framing, and refuses or cuts a record before the broker would.
 */
export const MAX_RECORD_BYTES = 1_000_000;

/** TRUNCATED_HEADER marks a dead letter cut to fit MAX_RECORD_BYTES; its value says the original sizes. */
export const TRUNCATED_HEADER = DEAD_LETTER_HEADERS.truncated;

/** MAX_DEAD_LETTER_KEY_BYTES is what is kept of an oversized dead letter's key (a key is a name, not a payload). */
const MAX_DEAD_LETTER_KEY_BYTES = 1024;

/** Kafka's v2 record framing (varint lengths, attributes, deltas) costs at most this per record and per header. */
const RECORD_OVERHEAD = 32;
const HEADER_OVERHEAD = 10;

/** Outgoing is a record for one of the writer's topics. */
export type Outgoing = { readonly topic: string; readonly record: OutgoingRecord };

/** OversizedRecordError refuses a record larger than MAX_RECORD_BYTES before the broker does (a poison fault). */
export class OversizedRecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OversizedRecordError';
  }
}

/** recordBytes is the size a record takes in a produce request, framing included (an upper bound). */
export function recordBytes(r: OutgoingRecord): number {
  let bytes = Buffer.byteLength(r.key) + (r.value?.length ?? 0) + RECORD_OVERHEAD;
  for (const [k, v] of Object.entries(r.headers ?? {})) bytes += Buffer.byteLength(k) + Buffer.byteLength(v) + HEADER_OVERHEAD;
  return bytes;
}

/** checkFits returns a record that fits MAX_RECORD_BYTES and refuses a larger one with a clear OversizedRecordError. */
export function checkFits(item: Outgoing): Outgoing {
  const bytes = recordBytes(item.record);
  if (bytes > MAX_RECORD_BYTES) throw new OversizedRecordError(`a record of ${bytes} bytes for ${item.topic} exceeds the ${MAX_RECORD_BYTES}-byte limit (the broker's message.max.bytes)`);
  return item;
}

/**
 * fitDeadLetter cuts a dead letter that would not fit MAX_RECORD_BYTES: its key to 1 KiB, its value to what is left,
 * with TRUNCATED_HEADER saying the original sizes; its reason and source headers are kept whole.
 */
export function fitDeadLetter(r: OutgoingRecord): OutgoingRecord {
  if (recordBytes(r) <= MAX_RECORD_BYTES) return r;
  const keyBytes = Buffer.from(r.key);
  const key = keyBytes.subarray(0, MAX_DEAD_LETTER_KEY_BYTES).toString('utf8');
  const note = `value ${r.value?.length ?? 0} bytes, key ${keyBytes.length} bytes: cut to fit ${MAX_RECORD_BYTES} bytes`;
  const headers = { ...r.headers, [TRUNCATED_HEADER]: note };
  const room = MAX_RECORD_BYTES - recordBytes({ key, value: null, headers });
  return { ...r, key, value: r.value && r.value.subarray(0, Math.max(room, 0)), headers };
}

/**
 * chunks splits records into produce requests of at most MAX_RECORD_BYTES each, in order (one record never
 * exceeds it: results are checked and dead letters fitted before they are queued).
 */
export function chunks(items: readonly Outgoing[]): Outgoing[][] {
  const out: Outgoing[][] = [];
  let size = Infinity;
  for (const item of items) {
    const bytes = recordBytes(item.record);
    if (size + bytes > MAX_RECORD_BYTES) {
      out.push([]);
      size = 0;
    }
    out.at(-1)!.push(item);
    size += bytes;
  }
  return out;
}

/**
 * Outbox publishes the writer's results and dead letters: many per round trip (the runtime's Batcher, one request
 * in flight), split so that no request exceeds the broker's limit, so one large record cannot wedge the producer.
 */
export class Outbox {
  readonly #batcher: Batcher<Outgoing>;

  constructor(publisher: Pick<Publisher, 'sendTopics'>) {
    this.#batcher = new Batcher(async (items) => {
      for (const chunk of chunks(items)) await publisher.sendTopics(byTopic(chunk));
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
