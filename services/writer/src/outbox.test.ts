import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OutgoingRecord } from '@kcm-bus/runtime/bus/bus.ts';
import { checkFits, chunks, fitDeadLetter, MAX_RECORD_BYTES, Outbox, OversizedRecordError, recordBytes, TRUNCATED_HEADER } from './outbox.ts';

const of = (valueBytes: number, key = 'k'): OutgoingRecord => ({ key, value: Buffer.alloc(valueBytes, 1) });

describe('Outbox: nothing the writer publishes can exceed the broker\'s limit', () => {
  it('given a result over the limit, then it is refused with the size and the limit before the broker sees it', () => {
    assert.throws(() => checkFits({ topic: 'kcm.mutation-results', record: of(MAX_RECORD_BYTES) }), (err: unknown) =>
      err instanceof OversizedRecordError && /of 1000033 bytes for kcm.mutation-results exceeds the 1000000-byte limit/.test(err.message));
  });

  it('given a dead letter of a huge record, then its value and key are cut to fit, its reason kept and a header says so', () => {
    const huge = { ...of(1_048_000, 'k'.repeat(50_000)), headers: { 'kcm-bus.reason': 'InvalidRecordError: …' } };
    const fitted = fitDeadLetter(huge);
    assert.ok(recordBytes(fitted) <= MAX_RECORD_BYTES);
    assert.equal(fitted.key.length, 1024);
    assert.equal(fitted.headers?.['kcm-bus.reason'], 'InvalidRecordError: …');
    assert.equal(fitted.headers?.[TRUNCATED_HEADER], 'value 1048000 bytes, key 50000 bytes: cut to fit 1000000 bytes');
    assert.equal(fitDeadLetter(of(10)).headers, undefined, 'a dead letter that fits is left alone');
  });

  it('given records summing past the limit, then they go in several requests, in order', () => {
    const items = [400_000, 400_000, 400_000, 10].map((n, i) => ({ topic: 't', record: of(n, String(i)) }));
    assert.deepEqual(chunks(items).map((c) => c.map((i) => i.record.key)), [['0', '1'], ['2', '3']]);
  });

  it('given results and dead letters pushed together, then each request names its topics and stays under the limit', async () => {
    const sent: number[] = [];
    const outbox = new Outbox({ sendTopics: async (batches) => void sent.push(batches.flatMap((b) => b.records).reduce((n, r) => n + recordBytes(r), 0)) });
    await Promise.all([outbox.push({ topic: 'a', record: of(700_000) }), outbox.push({ topic: 'b', record: of(700_000) }), outbox.push({ topic: 'a', record: of(10) })]);
    assert.ok(sent.length >= 2 && sent.every((n) => n <= MAX_RECORD_BYTES), String(sent));
  });
});
