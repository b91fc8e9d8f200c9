import { type AvroRecord, isValidAvroName, JSON_ENCODING } from './avro-schema.ts';
import { WATCH_RECORD_TYPES } from '../watch-record.ts';

/** WATCH_EVENT_NAMESPACE is the Avro namespace of kcm-bus's own records, versioned like an API group. */
export const WATCH_EVENT_NAMESPACE = 'io.kcmbus.v1';

/**
 * RESIDUE_FIELD is the envelope field that carries, as JSON, what of the object this schema version has no place for
 * (a field an apiserver newer than the schema added): readers merge it back, so no field is lost on the way from the
 * API to the writer (packages/runtime/src/codec/residue.ts).
 */
export const RESIDUE_FIELD = 'unknownFields';

/**
 * watchEventSchema wraps a kind's object schema in the value record of its `kcm.watch.<plural>` topic
 * (`io.kcmbus.v1.<Kind>WatchEvent`, DESIGN "Topics and records"): the Avro form of WatchRecord (../watch-record.ts,
 * which says what each field means). Adding a symbol to the enum later would break FORWARD compatibility: old
 * readers fail on symbols they do not know.
 */
export function watchEventSchema(objectSchema: AvroRecord, kind: string): AvroRecord {
  if (!isValidAvroName(kind)) throw new Error(`kind ${JSON.stringify(kind)} is not a valid Avro name`);
  return {
    type: 'record',
    name: `${kind}WatchEvent`,
    namespace: WATCH_EVENT_NAMESPACE,
    fields: [
      {
        name: 'type',
        type: { type: 'enum', name: 'WatchEventType', namespace: WATCH_EVENT_NAMESPACE, symbols: WATCH_RECORD_TYPES },
      },
      { name: 'key', type: 'string' },
      { name: 'resourceVersion', type: 'string' },
      { name: 'observedAt', type: 'string' },
      { name: 'object', type: ['null', objectSchema], default: null },
      {
        name: RESIDUE_FIELD,
        type: ['null', { type: 'string', [JSON_ENCODING]: 'json' }],
        default: null,
        doc: 'What of the record the schema lacks, as JSON: objects keep only the keys leading to it, arrays stay index-aligned (null: nothing missing). Readers merge it back.',
      },
    ],
  };
}
