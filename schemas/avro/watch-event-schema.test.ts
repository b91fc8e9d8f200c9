import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AvroRecord } from './avro-schema.ts';
import { watchEventSchema } from './watch-event-schema.ts';

const RESIDUE_DOC =
  'What of the record the schema lacks, as JSON: objects keep only the keys leading to it, arrays stay index-aligned (null: nothing missing). Readers merge it back.';

const lease: AvroRecord = { type: 'record', name: 'Lease', namespace: 'io.k8s.api.coordination.v1', fields: [] };

describe('watchEventSchema', () => {
  test('given a kind and its object schema, the envelope is io.kcmbus.v1.<Kind>WatchEvent with the object inside, absent only in watermarks, and the residue', () => {
    assert.deepEqual(watchEventSchema(lease, 'Lease'), {
      type: 'record',
      name: 'LeaseWatchEvent',
      namespace: 'io.kcmbus.v1',
      fields: [
        {
          name: 'type',
          type: {
            type: 'enum',
            name: 'WatchEventType',
            namespace: 'io.kcmbus.v1',
            symbols: ['Applied', 'Deleted', 'Watermark'],
          },
        },
        { name: 'key', type: 'string' },
        { name: 'resourceVersion', type: 'string' },
        { name: 'observedAt', type: 'string' },
        { name: 'object', type: ['null', lease], default: null },
        {
          name: 'unknownFields',
          type: ['null', { type: 'string', 'kcmbus.encoding': 'json' }],
          default: null,
          doc: RESIDUE_DOC,
        },
      ],
    });
  });

  test('given a kind that is not an Avro name, it is refused', () => {
    assert.throws(() => watchEventSchema(lease, 'my-kind'), /not a valid Avro name/);
  });
});
