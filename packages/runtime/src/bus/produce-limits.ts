import type { OutgoingRecord } from './bus.ts';
import { MAX_RECORD_BYTES } from './record-limit.ts';

/**
 * MAX_REQUEST_BYTES is what one produce request of several records carries at most: the broker refuses a record batch
 * over the topic's max.message.bytes (1048588 by default, not retriable), so a request of several records stays under
 * the default with room for the batch's own framing.
 */
export const MAX_REQUEST_BYTES = 1_000_000;

/** Kafka's v2 record framing (varint lengths, attributes, deltas) costs at most this per record and per header. */
const RECORD_OVERHEAD = 32;
const HEADER_OVERHEAD = 10;

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
  for (const [k, v] of Object.entries(r.headers ?? {}))
    bytes += Buffer.byteLength(k) + Buffer.byteLength(v) + HEADER_OVERHEAD;
  return bytes;
}

/** TopicRecords are records for one topic, as a publisher sends them. */
export type TopicRecords = { readonly topic: string; readonly records: readonly OutgoingRecord[] };

/**
 * requestsUnderLimit splits what one send asks for into produce requests of at most MAX_REQUEST_BYTES each, in
 * order (records of one partition stay in order, the requests being sent one after the other); a larger record, up to
 * MAX_RECORD_BYTES, goes alone in a request of its own (its topic must allow it: RECORD_LIMIT_CONFIG), and one over
 * that is refused with an OversizedRecordError naming its topic and size.
 */
export function requestsUnderLimit(batches: readonly TopicRecords[]): TopicRecords[][] {
  const requests: TopicRecords[][] = [];
  let size = Infinity;
  for (const { topic, records } of batches) {
    for (const record of records) {
      const bytes = recordBytes(record);
      if (bytes > MAX_RECORD_BYTES)
        throw new OversizedRecordError(
          `a record of ${bytes} bytes for ${topic} exceeds the ${MAX_RECORD_BYTES}-byte limit (the topics' max.message.bytes)`,
        );
      if (size + bytes > MAX_REQUEST_BYTES) {
        requests.push([]);
        size = 0;
      }
      const request = requests.at(-1)!;
      const last = request.at(-1);
      if (last?.topic === topic) (last.records as OutgoingRecord[]).push(record);
      else request.push({ topic, records: [record] });
      size += bytes;
    }
  }
  return requests;
}
