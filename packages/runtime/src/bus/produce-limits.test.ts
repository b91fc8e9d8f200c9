import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OutgoingRecord } from './bus.ts';
import { MAX_REQUEST_BYTES, OversizedRecordError, recordBytes, requestsUnderLimit } from './produce-limits.ts';
import { MAX_RECORD_BYTES } from './record-limit.ts';

const of = (valueBytes: number, key = 'k'): OutgoingRecord => ({ key, value: Buffer.alloc(valueBytes, 1) });

describe("requestsUnderLimit: no produce request exceeds the broker's limit", () => {
  it('given records summing past the limit, then they go in several requests, in order, each naming its topics', () => {
    const requests = requestsUnderLimit([
      { topic: 'a', records: [of(400_000, '0'), of(400_000, '1')] },
      { topic: 'b', records: [of(400_000, '2'), of(10, '3')] },
    ]);
    assert.deepEqual(
      requests.map((r) => r.map((t) => [t.topic, t.records.map((x) => x.key)])),
      [[['a', ['0', '1']]], [['b', ['2', '3']]]],
    );
    assert.ok(
      requests.every((r) => r.flatMap((t) => t.records).reduce((n, x) => n + recordBytes(x), 0) <= MAX_REQUEST_BYTES),
    );
  });

  it('given a record over a request of several records but under the record limit, then it goes alone in a request of its own', () => {
    const requests = requestsUnderLimit([
      { topic: 'a', records: [of(10, '0'), of(1_500_000, 'big'), of(10, '2')] },
      { topic: 'b', records: [of(10, '3')] },
    ]);
    assert.deepEqual(
      requests.map((r) => r.map((t) => [t.topic, t.records.map((x) => x.key)])),
      [
        [['a', ['0']]],
        [['a', ['big']]],
        [
          ['a', ['2']],
          ['b', ['3']],
        ],
      ],
    );
  });

  it('given a single record over the record limit, then it is refused with its topic, size and the limit before the broker sees it', () => {
    assert.throws(
      () => requestsUnderLimit([{ topic: 'kcm.mutations', records: [of(MAX_RECORD_BYTES)] }]),
      (err: unknown) =>
        err instanceof OversizedRecordError &&
        /of 4000033 bytes for kcm.mutations exceeds the 4000000-byte limit/.test(err.message),
    );
  });

  it('given nothing to send, then there is no request', () => {
    assert.deepEqual(requestsUnderLimit([{ topic: 'a', records: [] }]), []);
  });
});
