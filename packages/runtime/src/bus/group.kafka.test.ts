import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KafkaMessage } from 'kafkajs';
import { busBatch } from './group.kafka.ts';

/** message is a kafkajs record-batch entry with the given offset, key, value and headers. */
const message = (offset: string, key: Buffer | null, value: Buffer | null, headers: KafkaMessage['headers'] = {}): KafkaMessage =>
  ({ key, value, offset, timestamp: '1700000000000', attributes: 0, headers });

describe('busBatch', () => {
  it('given a kafkajs batch with a tombstone and header values, then the records keep bytes, offsets and headers as text', () => {
    const batch = busBatch({
      topic: 'kcm.mutation-dead-letters', partition: 2, lastOffset: () => '8',
      messages: [message('6', Buffer.from('ns/a'), null), message('7', null, Buffer.from('x'), { 'kcm-bus.reason': Buffer.from('undecodable'), absent: undefined })],
    });
    assert.deepEqual(batch, {
      topic: 'kcm.mutation-dead-letters', partition: 2, lastOffset: '8',
      records: [
        { key: Buffer.from('ns/a'), value: null, offset: '6', timestamp: '1700000000000', headers: {} },
        { key: null, value: Buffer.from('x'), offset: '7', timestamp: '1700000000000', headers: { 'kcm-bus.reason': 'undecodable' } },
      ],
    });
  });
});
