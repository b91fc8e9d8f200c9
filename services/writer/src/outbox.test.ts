import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type OutgoingRecord,
  MAX_REQUEST_BYTES,
  OversizedRecordError,
  recordBytes,
} from '@kcm-bus/runtime/bus/index.ts';
import { checkFits, fitDeadLetter, Outbox, TRUNCATED_HEADER } from './outbox.ts';

const of = (valueBytes: number, key = 'k'): OutgoingRecord => ({ key, value: Buffer.alloc(valueBytes, 1) });

describe("Outbox: nothing the writer publishes can exceed the broker's limit", () => {
  it('given a result over the limit, then it is refused with the size and the limit before the broker sees it', () => {
    assert.throws(
      () => checkFits({ topic: 'kcm.mutation-results', record: of(MAX_REQUEST_BYTES) }),
      (err: unknown) =>
        err instanceof OversizedRecordError &&
        /of 1000033 bytes for kcm.mutation-results exceeds the 1000000-byte limit/.test(err.message),
    );
  });

  it('given a dead letter of a huge record, then its value and key are cut to fit, its reason kept and a header says so', () => {
    const huge = { ...of(1_048_000, 'k'.repeat(50_000)), headers: { 'kcm-bus.reason': 'InvalidRecordError: …' } };
    const fitted = fitDeadLetter(huge);
    assert.ok(recordBytes(fitted) <= MAX_REQUEST_BYTES);
    assert.equal(fitted.key.length, 1024);
    assert.equal(fitted.headers?.['kcm-bus.reason'], 'InvalidRecordError: …');
    assert.equal(fitted.headers?.[TRUNCATED_HEADER], 'value 1048000 bytes, key 50000 bytes: cut to fit 1000000 bytes');
    assert.equal(fitDeadLetter(of(10)).headers, undefined, 'a dead letter that fits is left alone');
  });

  it('given results and dead letters pushed together, then they reach the publisher grouped by topic, and one over the limit is refused', async () => {
    const sent: string[][] = [];
    const outbox = new Outbox({
      sendTopics: async (batches) => (
        sent.push(batches.map((b) => `${b.topic}:${b.records.map((r) => r.key).join('')}`)),
        []
      ),
    });
    await Promise.all([
      outbox.push({ topic: 'a', record: of(10, '1') }),
      outbox.push({ topic: 'b', record: of(10, '2') }),
      outbox.push({ topic: 'a', record: of(10, '3') }),
    ]);
    assert.deepEqual(
      sent,
      [['a:1'], ['b:2', 'a:3']],
      'the first goes at once, what came meanwhile goes together, grouped by topic',
    );
    assert.throws(() => outbox.push({ topic: 'a', record: of(MAX_REQUEST_BYTES) }), OversizedRecordError);
  });
});
