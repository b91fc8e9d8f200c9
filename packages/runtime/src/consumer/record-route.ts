import type { BusRecord } from '../bus/bus.ts';
import type { Serde } from '../codec/serde.ts';
import { objectNameOf } from '../mutation/mutation-id.ts';
import type { MutationResult } from '../mutation/mutation-result.ts';
import type { Mutation } from '../mutation/mutation.ts';
import { type Signing, WRITER_SIGNER } from '../signing/signing.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import { misplacedRecord, type WatchRecord } from '@kcm-bus/schemas/watch-record.ts';
import { withheldValueCarried } from '@kcm-bus/schemas/withheld.ts';
import { identityExceeded } from '@kcm-bus/schemas/metadata-only.ts';
import type { InputEvent } from '../controller/controller-types.ts';

/** Routed is what a consumed record is for a controller: a watch event, one of its results, or nothing to act on. */
export type Routed =
  | { readonly kind: 'event'; readonly event: InputEvent }
  | { readonly kind: 'result'; readonly result: MutationResult; readonly cause: InputEvent['cause'] }
  | { readonly kind: 'watermark'; readonly observedAt: Date; readonly resourceVersion: string }
  | { readonly kind: 'skip' };

/** MalformedRecordError: the record decodes but is not what its topic promises (a poison record). */
export class MalformedRecordError extends Error {}

const SKIP: Routed = { kind: 'skip' };

/**
 * routeRecord decodes one record of an input or the results topic (`results` is then the Signing that verifies it).
 * An input's tombstone is the delete of its key (tombstoneEvent); a results tombstone carries nothing to act on; a
 * watermark (under its own key) tells the watcher's time its partition is
 * complete up to (Watermarks), one with a bad time is malformed; a result the writer did not sign is refused
 * (ForgedRecordError); a watch record whose object is not the one its key names is refused (MalformedRecordError),
 * so a store is never keyed by one object and filled with another, and so is one of a withheld kind that carries a
 * value (withheldValueCarried: a secret's). Decoding errors propagate for the caller to classify.
 * The cause names the record by topic, partition and offset, and by key (and a watch record's resourceVersion), so
 * `trace` finds it in the history topic once the state topic compacted it away.
 */
export async function routeRecord(
  serde: Pick<Serde, 'decode'> | undefined,
  results: Signing | undefined,
  topic: string,
  partition: number,
  record: BusRecord,
  live: boolean,
): Promise<Routed> {
  const key = record.key?.toString() ?? '';
  const cause = { topic, partition, offset: Number(record.offset), key };
  if (serde === undefined) return SKIP;
  if (record.value === null) return results ? SKIP : { kind: 'event', event: tombstoneEvent(cause, key, live) };
  results?.verify(WRITER_SIGNER, { key, value: record.value, headers: record.headers });
  const value = (await serde.decode(record.value)).value;
  if (results) return { kind: 'result', result: value as MutationResult, cause };
  const event = value as WatchRecord<{
    readonly metadata?: { readonly namespace?: string | null; readonly name?: string };
  } | null>;
  const misplaced = misplacedRecord(key, event);
  if (misplaced !== undefined) throw new MalformedRecordError(misplaced);
  const refused = withheldValueCarried(topic, event.object) ?? identityExceeded(topic, event.object);
  if (refused !== undefined) throw new MalformedRecordError(refused);
  if (event.type === 'Watermark') return watermarkOf(event);
  const observedAt = new Date(event.observedAt);
  return {
    kind: 'event',
    event: {
      cause: { ...cause, resourceVersion: event.resourceVersion },
      type: event.type,
      key,
      object: event.object,
      resourceVersion: event.resourceVersion,
      live,
      ...(Number.isNaN(observedAt.getTime()) ? {} : { observedAt }),
    },
  };
}

/**
 * tombstoneEvent is the delete a state topic's tombstone stands for. The watcher writes a Deleted record (with the
 * last object) and then the key's tombstone, but compaction only promises a reader the final record of each key:
 * a member that read an older Applied before the log cleaner removed the Deleted that followed it finds only the
 * tombstone (Kafka's guarantee to a consumer reading from the start is the final state and the delete markers, not
 * every record). Skipping it left that member holding an object the API had deleted (issue 41's ghost). It carries
 * no object and no resourceVersion: the store hands the handlers its last state, as client-go's
 * DeletedFinalStateUnknown.
 */
function tombstoneEvent(cause: InputEvent['cause'], key: string, live: boolean): InputEvent {
  return { cause, type: 'Deleted', key, object: null, resourceVersion: '', live };
}

function watermarkOf(event: WatchRecord<unknown>): Routed {
  const observedAt = new Date(event.observedAt);
  if (Number.isNaN(observedAt.getTime()))
    throw new MalformedRecordError(`watermark time ${JSON.stringify(event.observedAt)} is not a time`);
  return { kind: 'watermark', observedAt, resourceVersion: event.resourceVersion };
}

/** recordKey is a mutation's record key: its target `namespace/name`, with a generated name derived as the writer will. */
export function recordKey(m: Mutation): string {
  return objectKey({ namespace: m.target.namespace, name: objectNameOf(m) });
}
