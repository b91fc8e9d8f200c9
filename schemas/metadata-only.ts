import type { AvroField, AvroRecord } from './avro/avro-schema.ts';
import { WATCH_EVENT_NAMESPACE } from './avro/watch-event-schema.ts';
import { stateTopic, WATCHED_KINDS, watchTopic, type WatchedKind } from './kinds.ts';

/*
 * A metadata-only kind's topics carry each object's identity and nothing else: what counting needs (a quota's
 * count/<resource>), for kinds whose content no controller reads (config maps, secrets, jobs...). The watcher lists and
 * watches them as PartialObjectMetadata and keeps IDENTITY_FIELDS alone (labels and annotations stay behind: a
 * `kubectl apply`'s last-applied-configuration holds a Secret's values); the topic's schema has no place for more, and
 * each reader refuses a record that carries more anyway (identityExceeded).
 */

/** IDENTITY_FIELDS are the metadata fields a metadata-only kind's records carry. */
export const IDENTITY_FIELDS: readonly string[] = [
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'deletionTimestamp',
];

const optionalString = (name: string): AvroField => ({ name, type: ['null', 'string'], default: null });

/** metadataOnlySchema is a metadata-only kind's object schema: apiVersion, kind and the identity of its metadata. */
export function metadataOnlySchema(kind: Pick<WatchedKind, 'kind'>): AvroRecord {
  return {
    type: 'record',
    name: `${kind.kind}Identity`,
    namespace: WATCH_EVENT_NAMESPACE,
    doc: `A ${kind.kind}'s identity alone (a metadata-only kind): never its content, labels or annotations.`,
    fields: [
      optionalString('apiVersion'),
      optionalString('kind'),
      {
        name: 'metadata',
        type: ['null', { type: 'record', name: 'ObjectIdentity', fields: IDENTITY_FIELDS.map(optionalString) }],
        default: null,
      },
    ],
  };
}

type ObjectLike = { readonly metadata?: Readonly<Record<string, unknown>> };

/**
 * identityOf is an object as a metadata-only kind's topic carries it: the kind's apiVersion and kind (the API serves
 * PartialObjectMetadata), and IDENTITY_FIELDS of its metadata.
 */
export function identityOf<T extends ObjectLike>(object: T, kind: Pick<WatchedKind, 'apiVersion' | 'kind'>): T {
  const metadata = object.metadata ?? {};
  const kept = Object.fromEntries(IDENTITY_FIELDS.filter((f) => metadata[f] != null).map((f) => [f, metadata[f]]));
  return { apiVersion: kind.apiVersion, kind: kind.kind, metadata: kept } as unknown as T;
}

/** METADATA_ONLY_TOPICS are the history and state topics of the metadata-only kinds. */
const METADATA_ONLY_TOPICS: ReadonlySet<string> = new Set(
  WATCHED_KINDS.filter((k) => k.metadataOnly === true).flatMap((k) => [watchTopic(k), stateTopic(k)]),
);

/**
 * identityExceeded says why a record of `topic` must not be passed on, when its kind is metadata-only and its object
 * carries more than an identity (a forged record, or a watcher that was not told); undefined otherwise.
 */
export function identityExceeded(
  topic: string,
  object: Readonly<Record<string, unknown>> | null | undefined,
): string | undefined {
  if (object === null || object === undefined || !METADATA_ONLY_TOPICS.has(topic)) return undefined;
  const metadata = (object['metadata'] ?? {}) as Readonly<Record<string, unknown>>;
  const extra = [
    ...Object.keys(object).filter((f) => f !== 'apiVersion' && f !== 'kind' && f !== 'metadata' && object[f] != null),
    ...Object.keys(metadata)
      .filter((f) => !IDENTITY_FIELDS.includes(f) && metadata[f] != null)
      .map((f) => `metadata.${f}`),
  ];
  return extra.length === 0
    ? undefined
    : `a record of ${topic} carries more than an identity (${extra.join(', ')}): refused, not passed on`;
}
