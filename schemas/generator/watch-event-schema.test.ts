import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AvroRecord } from './avro-schema.ts';
import { watchEventSchema } from './watch-event-schema.ts';

const lease: AvroRecord = { type: 'record', name: 'Lease', namespace: 'io.k8s.api.coordination.v1', fields: [] };

describe('watchEventSchema', () => {
  test('given a kind and its object schema, the envelope is io.kcmbus.v1.<Kind>WatchEvent with the object inside, absent only in watermarks', () => {
    assert.deepEqual(watchEventSchema(lease, 'Lease'), {
      type: 'record',
      name: 'LeaseWatchEvent',
      namespace: 'io.kcmbus.v1',
      fields: [
        { name: 'type', type: { type: 'enum', name: 'WatchEventType', namespace: 'io.kcmbus.v1', symbols: ['Applied', 'Deleted', 'Watermark'] } },
        { name: 'key', type: 'string' },
        { name: 'resourceVersion', type: 'string' },
        { name: 'observedAt', type: 'string' },
        { name: 'object', type: ['null', lease], default: null },
      ],
    });
  });

  test('given a kind that is not an Avro name, it is refused', () => {
    assert.throws(() => watchEventSchema(lease, 'my-kind'), /not a valid Avro name/);
  });
});
