import { isValidAvroName } from './avro-names.ts';
import type { AvroRecord } from './avro-schema.ts';

/** WATCH_EVENT_NAMESPACE is the Avro namespace of kcm-bus's own records, versioned like an API group. */
export const WATCH_EVENT_NAMESPACE = 'io.kcmbus.v1';

/**
 * watchEventSchema wraps a kind's object schema in the value record of its `kcm.watch.<plural>` topic
 * (`io.kcmbus.v1.<Kind>WatchEvent`, DESIGN "Topics and records"): `type` is Applied or Deleted (kube-rs'
 * watcher events; a Deleted record carries the last known object) or Watermark (the periodic record per
 * partition saying which resourceVersion the watcher had reached at `observedAt`; it has no object);
 * `key` is the record key (`namespace/name`, `name`, or `~watermark`, which no object name can be),
 * `resourceVersion` the object's (or the one reached), `observedAt` the watcher's clock as RFC 3339. Adding a
 * symbol to the enum later would break FORWARD compatibility: old readers fail on symbols they do not know.
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
        type: { type: 'enum', name: 'WatchEventType', namespace: WATCH_EVENT_NAMESPACE, symbols: ['Applied', 'Deleted', 'Watermark'] },
      },
      { name: 'key', type: 'string' },
      { name: 'resourceVersion', type: 'string' },
      { name: 'observedAt', type: 'string' },
      { name: 'object', type: ['null', objectSchema], default: null },
    ],
  };
}
