import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KafkaMessage } from 'kafkajs';
import { busBatch, lostGeneration } from './group.kafka.ts';

/** message is a kafkajs record-batch entry with the given offset, key, value and headers. */
const message = (
  offset: string,
  key: Buffer | null,
  value: Buffer | null,
  headers: KafkaMessage['headers'] = {},
): KafkaMessage => ({ key, value, offset, timestamp: '1700000000000', attributes: 0, headers });

describe('busBatch', () => {
  it('given a kafkajs batch with a tombstone and header values, then the records keep bytes, offsets and headers as text', () => {
    const batch = busBatch({
      topic: 'kcm.mutation-dead-letters',
      partition: 2,
      lastOffset: () => '8',
      messages: [
        message('6', Buffer.from('ns/a'), null),
        message('7', null, Buffer.from('x'), { 'kcm-bus.reason': Buffer.from('undecodable'), absent: undefined }),
      ],
    });
    assert.deepEqual(batch, {
      topic: 'kcm.mutation-dead-letters',
      partition: 2,
      lastOffset: '8',
      records: [
        { key: Buffer.from('ns/a'), value: null, offset: '6', timestamp: '1700000000000', headers: {} },
        {
          key: null,
          value: Buffer.from('x'),
          offset: '7',
          timestamp: '1700000000000',
          headers: { 'kcm-bus.reason': 'undecodable' },
        },
      ],
    });
  });
});

/** brokerError is a KafkaJSProtocolError's shape: the broker's error type on an Error. */
const brokerError = (type: string): Error => Object.assign(new Error(`broker answered ${type}`), { type });
/** afterRetries is how kafkajs's retrier hands it on: a KafkaJSNonRetriableError whose cause is the broker's error. */
const afterRetries = (cause: Error): Error =>
  Object.assign(new Error(cause.message, { cause }), { name: 'KafkaJSNonRetriableError' });

describe('lostGeneration', () => {
  it('given a commit refused because the member is gone, as kafkajs wraps it after its retries, then it is a lost generation', () => {
    assert.equal(lostGeneration(afterRetries(brokerError('UNKNOWN_MEMBER_ID'))), true);
    assert.equal(lostGeneration(brokerError('ILLEGAL_GENERATION')), true);
  });

  it('given any other failure, then it is not (the commit fails as before)', () => {
    assert.equal(lostGeneration(afterRetries(brokerError('GROUP_AUTHORIZATION_FAILED'))), false);
    assert.equal(lostGeneration(new Error('socket hang up')), false);
  });
});
