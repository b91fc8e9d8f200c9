import { type Bus, type BusRecord, type OutgoingRecord, endsNow, readRange } from '@kcm-bus/runtime/bus/index.ts';
import type { Serde } from '@kcm-bus/runtime/codec/index.ts';
import { classifyFault } from '@kcm-bus/runtime/faults/index.ts';
import { MalformedRecordError } from '@kcm-bus/runtime/consumer/index.ts';
import {
  compareResourceVersion,
  epochOf,
  HISTORY_NEXT_HEADER,
  misplacedRecord,
  type WatchRecord,
} from '@kcm-bus/schemas/watch-record.ts';
import type { KubeObject } from './events.ts';
import { historyRange, readHistoryTails, type TailRange } from './history-tail.ts';
import type { KindTopics } from './kind-topic.ts';
import { PublishedState } from './store.ts';

/**
 * Restored is what a kind's topics say was published: live objects, the resourceVersion to resume from, the latest
 * watermark record (encoded), per history partition the offset after the last record read, and the history's tail
 * past the state's markers (the state records of it, for the next checkpoint to write).
 */
export type Restored = {
  readonly state: PublishedState;
  readonly resumeFrom: string | undefined;
  readonly watermark: Buffer | undefined;
  readonly next: ReadonlyMap<number, bigint>;
  readonly tail: readonly OutgoingRecord[];
  readonly records: number;
  readonly skipped: number;
};

/** RestorePorts are what a restore reads the topics with: their offsets, and groups that read ranges of them. */
export type RestorePorts = Pick<Bus, 'offsets' | 'joinGroup'>;

/** KindToRestore is a kind's part of a restore: its topics, its decoder, where its keys go, and whom poison is told. */
export type KindToRestore = {
  readonly topics: KindTopics;
  readonly serde: Pick<Serde, 'decode'>;
  readonly placed: { readonly partitions: number; readonly partitionOf: (key: string) => number };
  readonly onPoison: (offset: string, err: unknown) => void;
};

/**
 * restoreKinds rebuilds what was published of each kind (after a restart): its state topic from the beginning (about
 * one record per live object, whatever the length of the history), then each history partition from the state's
 * marker on (the changes the last checkpoint did not hold; a partition without a marker was written whole to the
 * state, as before checkpoints, and is read from its end), records of an older epoch than the marker's left out (a
 * zombie's). Every kind's state topic is read in one group, then every history tail in another: a group's join and
 * leave cost about a second each on three brokers, and two a kind held the watcher's restart 8 s. A record that
 * cannot be decoded (the topics are open to anyone who can produce) is skipped and reported, never the end of the
 * watcher; a transient fault (registry unreachable) fails the restore, and the restarted watcher tries again.
 */
export async function restoreKinds(bus: RestorePorts, kinds: readonly KindToRestore[]): Promise<Restored[]> {
  const readings = kinds.map((k) => newReading(k.placed));
  const states = new Map(kinds.map((k, i) => [k.topics.state, i]));
  const ends = await endsNow(bus, [...states.keys()]);
  await readRange(bus, { topics: [...states.keys()], ends }, async (record, tp) => {
    const i = states.get(tp.topic)!;
    const r = readings[i]!;
    await applyRecord(r, kinds[i]!.serde, record, kinds[i]!.onPoison, (m) => r.markers.set(tp.partition, m));
  });
  const histories = await Promise.all(kinds.map((k, i) => historyRange(bus, k.topics.history, readings[i]!.markers)));
  const tails = await readHistoryTails(bus, histories, (i, record) =>
    applyRecord(readings[i]!, kinds[i]!.serde, record, kinds[i]!.onPoison, () => undefined),
  );
  return kinds.map((_, i) => restored(readings[i]!, histories[i]!, tails[i]!));
}

type Reading = {
  readonly state: PublishedState;
  resumeFrom: string | undefined;
  watermark: Buffer | undefined;
  records: number;
  skipped: number;
  readonly markers: Map<number, { next: bigint; epoch: bigint }>;
};

/** newReading is a kind's reading before its first record. */
function newReading(placed: KindToRestore['placed']): Reading {
  return {
    state: new PublishedState(placed.partitions, placed.partitionOf),
    resumeFrom: undefined,
    watermark: undefined,
    records: 0,
    skipped: 0,
    markers: new Map(),
  };
}

/** restored is a kind's reading done: each history partition's next offset is its end, or its marker's when later. */
function restored(r: Reading, range: TailRange, tail: readonly OutgoingRecord[]): Restored {
  const next = new Map(
    [...range.ends].map(([p, end]) => [p, end > (range.from.get(p) ?? 0n) ? end : (range.from.get(p) ?? end)]),
  );
  const { state, resumeFrom, watermark, records, skipped } = r;
  return { state, resumeFrom, watermark, next, tail, records, skipped };
}

/** applyRecord applies one record of either topic to the reading; a marker's history offset and epoch go to onMarker. */
async function applyRecord(
  r: Reading,
  serde: Pick<Serde, 'decode'>,
  record: BusRecord,
  onPoison: (offset: string, err: unknown) => void,
  onMarker: (marker: { next: bigint; epoch: bigint }) => void,
): Promise<WatchRecord<KubeObject> | undefined> {
  r.records++;
  const key = record.key?.toString() ?? '';
  if (record.value === null) return void r.state.apply('Deleted', key, {});
  const event = await decodeRecord(serde, key, record.value).catch((err: unknown) => {
    if (classifyFault(err) === 'transient') throw err;
    if (r.skipped++ === 0) onPoison(record.offset, err);
  });
  if (event === undefined) return undefined;
  if (r.resumeFrom === undefined || laterVersion(event.resourceVersion, r.resumeFrom))
    r.resumeFrom = event.resourceVersion;
  if (event.type !== 'Watermark') r.state.apply(event.type, key, event.object as KubeObject);
  else {
    r.watermark = record.value;
    const next = record.headers[HISTORY_NEXT_HEADER];
    if (next !== undefined && /^[0-9]+$/.test(next)) onMarker({ next: BigInt(next), epoch: epochOf(record.headers) });
  }
  return event;
}

/**
 * decodeRecord decodes a record and refuses, as poison, one the consumers would refuse (misplacedRecord): what the
 * watcher takes for published must be what its readers hold, or its inventories would report them diverging.
 */
async function decodeRecord(
  serde: Pick<Serde, 'decode'>,
  key: string,
  value: Buffer,
): Promise<WatchRecord<KubeObject>> {
  const event = (await serde.decode(value)).value as WatchRecord<KubeObject>;
  const misplaced = misplacedRecord(key, event);
  if (misplaced !== undefined) throw new MalformedRecordError(misplaced);
  return event;
}

/**
 * laterVersion tells whether resourceVersion a is later than b. The API says resourceVersions are opaque; the
 * apiserver's are etcd revisions (integers), and only a watcher resuming across restarts compares them: one it
 * cannot order (not an integer) that differs is taken as the later, so the watcher resumes from the last it read.
 */
function laterVersion(a: string, b: string): boolean {
  return (compareResourceVersion(a, b) ?? (a === b ? 0 : 1)) > 0;
}
