import type { AvroRecord } from './avro/avro-schema.ts';
import { stateTopic, WATCHED_KINDS, watchTopic, type WatchedKind } from './kinds.ts';

/*
 * The values of a withheld kind (a Secret's) never travel on the bus. Its topic's schema has no place for them, the
 * watcher replaces them before encoding (so not even the residue of fields the schema lacks can carry one), and each
 * reader refuses a record that carries one anyway (withheldValueCarried): a forged record, or a watcher that was not told.
 */

/** WITHHELD_FIELDS are the object fields that hold values: a Secret's `data` and its write-only `stringData`. */
export const WITHHELD_FIELDS: readonly string[] = ['data', 'stringData'];

/** DATA_DIGESTS is the field that travels instead: each key of `data` with the keyed digest of its value. */
export const DATA_DIGESTS = 'dataDigests';

/** withheldSchema is a withheld kind's object schema: WITHHELD_FIELDS removed, DATA_DIGESTS (a map of strings) added. */
export function withheldSchema(record: AvroRecord): AvroRecord {
  return {
    ...record,
    fields: [
      ...record.fields.filter((f) => !WITHHELD_FIELDS.includes(f.name)),
      {
        name: DATA_DIGESTS,
        type: ['null', { type: 'map', values: 'string' }],
        default: null,
        doc: "Each key of the object's data with the HMAC-SHA256 of its value (base64url) under the deployment's secret digest key: never the value.",
      },
    ],
  };
}

/**
 * withholdValues is the object as a withheld kind's topic carries it: WITHHELD_FIELDS dropped, `data`'s values (base64,
 * as the API serves them) replaced by their digests, and only the kind's kept annotations (a `kubectl apply`'s
 * last-applied-configuration holds the values too).
 */
export function withholdValues<T extends { readonly [field: string]: unknown }>(
  object: T,
  withheld: NonNullable<WatchedKind['withheld']>,
  digest: (value: Buffer) => string,
): T {
  const { metadata, data } = object as { metadata?: Record<string, unknown>; data?: Record<string, unknown> | null };
  const out: Record<string, unknown> = Object.fromEntries(
    Object.entries(object).filter(([field]) => !WITHHELD_FIELDS.includes(field)),
  );
  if (metadata !== undefined) {
    const annotations = Object.entries((metadata['annotations'] as Record<string, string> | null) ?? {});
    out['metadata'] = {
      ...metadata,
      annotations: Object.fromEntries(annotations.filter(([k]) => withheld.keptAnnotations.includes(k))),
    };
  }
  const values = Object.entries(data ?? {});
  if (values.length > 0)
    out[DATA_DIGESTS] = Object.fromEntries(values.map(([k, v]) => [k, digest(Buffer.from(String(v), 'base64'))]));
  return out as T;
}

/** WITHHELD_TOPICS are the history and state topics of the withheld kinds: a record of any other passes unread. */
const WITHHELD_TOPICS: ReadonlySet<string> = new Set(
  WATCHED_KINDS.filter((k) => k.withheld !== undefined).flatMap((k) => [watchTopic(k), stateTopic(k)]),
);

/**
 * withheldValueCarried says why a record of `topic` must not be passed on, when its kind's values are withheld and its
 * object carries one anyway (a forged record, or a watcher not told to withhold them); undefined otherwise.
 */
export function withheldValueCarried(
  topic: string,
  object: Readonly<Record<string, unknown>> | null | undefined,
): string | undefined {
  if (object === null || object === undefined || !WITHHELD_TOPICS.has(topic)) return undefined;
  const carried = WITHHELD_FIELDS.filter((f) => object[f] !== undefined && object[f] !== null);
  return carried.length === 0
    ? undefined
    : `a record of ${topic} carries values (${carried.join(', ')}), which never travel: refused, not passed on`;
}
