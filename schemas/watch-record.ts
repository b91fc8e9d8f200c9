import { objectKey } from './kinds.ts';

/**
 * The watch-record contract: what a `kcm.watch.<plural>` topic holds, defined once for the watcher that writes it and
 * the runtime that reads it. Its Avro form is avro/watch-event-schema.ts (`io.kcmbus.v1.<Kind>WatchEvent`).
 */

/** WATCH_RECORD_TYPES are the symbols of the record's `type` enum, in schema order (adding one breaks old readers). */
export const WATCH_RECORD_TYPES = ['Applied', 'Deleted', 'Watermark'] as const;

/**
 * WatchRecordType is a record's type: an object was Applied (added or changed) or Deleted (the record carries its
 * last known state; synthetic deletes after a relist too, client-go's DeletedFinalStateUnknown), or a Watermark says
 * which resourceVersion the watcher had reached.
 */
export type WatchRecordType = (typeof WATCH_RECORD_TYPES)[number];

/** ObjectEventType is the type of a record that carries an object (kube-rs' watcher events, in the past tense). */
export type ObjectEventType = Exclude<WatchRecordType, 'Watermark'>;

/** WATERMARK_KEY is the record key of watermarks: no Kubernetes name can contain `~`. */
export const WATERMARK_KEY = '~watermark';

/** isWatermarkKey tells a watermark's record key from an object's (`namespace/name` or `name`). */
export function isWatermarkKey(key: string): key is typeof WATERMARK_KEY {
  return key === WATERMARK_KEY;
}

/**
 * WatchRecord is a record's value with its object as T: `key` is the record key, `resourceVersion` the object's (or,
 * for a Watermark, the one reached), `observedAt` the watcher's clock as RFC 3339. A Watermark has no object and is
 * published to every partition of the topic.
 */
export type WatchRecord<T> =
  | {
      readonly type: ObjectEventType;
      readonly key: string;
      readonly resourceVersion: string;
      readonly observedAt: string;
      readonly object: T;
    }
  | {
      readonly type: 'Watermark';
      readonly key: typeof WATERMARK_KEY;
      readonly resourceVersion: string;
      readonly observedAt: string;
      readonly object: null;
    };

/**
 * misplacedRecord says why a decoded record under `key` is not what the watch topics promise, or undefined when it
 * is: a watermark goes only under WATERMARK_KEY and nothing else does, and an Applied record's object is the one its
 * key names. Every reader of the topics applies this one rule (a consumer dead-letters such a record, the watcher's
 * restore skips it), so that none holds an object another refused: their inventories stay comparable.
 */
export function misplacedRecord(
  key: string,
  event: Pick<
    WatchRecord<{ readonly metadata?: { readonly namespace?: string | null; readonly name?: string } } | null>,
    'type' | 'object'
  >,
): string | undefined {
  if (isWatermarkKey(key) !== (event.type === 'Watermark'))
    return `${event.type === 'Applied' ? 'an' : 'a'} ${event.type} record under key ${JSON.stringify(key)}`;
  if (event.type !== 'Applied') return undefined;
  const named = event.object?.metadata === undefined ? undefined : objectKey(event.object.metadata);
  return named === key
    ? undefined
    : `record key ${JSON.stringify(key)} does not name its object (${JSON.stringify(named)})`;
}

const WELL_FORMED = /^[1-9][0-9]*$/;

/**
 * compareResourceVersion mirrors apimachinery's resourceversion.CompareResourceVersion (KEP-5504): resourceVersions
 * are opaque, but a well-formed one (a decimal integer without leading zeros, as the apiserver's etcd revisions) orders
 * as that integer, of any size. It returns -1, 0 or 1; undefined where upstream returns InvalidResourceVersion, so
 * each caller decides what a version it cannot order means.
 */
export function compareResourceVersion(a: string, b: string): -1 | 0 | 1 | undefined {
  if (!WELL_FORMED.test(a) || !WELL_FORMED.test(b)) return undefined;
  if (a.length !== b.length) return a.length > b.length ? 1 : -1;
  return a === b ? 0 : a > b ? 1 : -1;
}

/**
 * EPOCH_HEADER carries, on every record a watcher writes to a watch or state topic, the watcher's epoch: one past
 * the offset of its claim in WATCHER_EPOCHS_TOPIC, so a newer watcher's is larger. A reader keeps each partition's largest
 * epoch and drops a record of a smaller one: it comes from a watcher a newer one replaced (a zombie).
 */
export const EPOCH_HEADER = 'kcm-bus-epoch';

/**
 * HISTORY_NEXT_HEADER is on a state topic's watermark records (the checkpoint's markers): the offset of the first
 * record of the partition's history topic the state does not hold yet. A reader restores from the state topic, then
 * reads the history topic's partition from there.
 */
export const HISTORY_NEXT_HEADER = 'kcm-bus-history-next';

/** WATCHER_EPOCHS_TOPIC holds the watchers' epoch claims (one partition, compacted, keyed by transactional id). */
export const WATCHER_EPOCHS_TOPIC = 'kcm.watcher-epochs';

/**
 * INVENTORY_HEADER is on a history topic's watermark records: what the watcher had published of the partition's live
 * objects up to that record, `<count>:<digest>` (the digest an XOR of a hash of each key, 8 hex digits). A member
 * whose view of the partition, read up to the same record, says otherwise has diverged from the watcher's.
 */
export const INVENTORY_HEADER = 'kcm-bus-inventory';

/** epochOf is a record's watcher epoch (EPOCH_HEADER), 0n for a record without one (written before epochs). */
export function epochOf(headers: Readonly<Record<string, string>>): bigint {
  const value = headers[EPOCH_HEADER];
  return value !== undefined && /^[0-9]+$/.test(value) ? BigInt(value) : 0n;
}
