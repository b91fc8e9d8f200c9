import { type Bus, type BusRecord, type OutgoingRecord, partitionId, readRange } from '@kcm-bus/runtime/bus/index.ts';
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

type Reading = {
  readonly state: PublishedState;
  resumeFrom: string | undefined;
  watermark: Buffer | undefined;
  records: number;
  skipped: number;
  readonly markers: Map<number, { next: bigint; epoch: bigint }>;
};

/** RestorePorts are what a restore reads the topics with: the state from the start, the history's tail in a group. */
export type RestorePorts = Pick<Bus, 'readToEnd' | 'offsets' | 'joinGroup'>;

/**
 * restoreKind rebuilds what was published (after a restart): the state topic from the beginning (about one record per
 * live object, whatever the length of the history), then each history partition from the state's marker on (the
 * changes the last checkpoint did not hold; a partition without a marker was written whole to the state, as before
 * checkpoints, and is read from its end), records of an older epoch than the marker's left out (a zombie's). A
 * record that cannot be decoded (the topics are open to anyone who can produce) is skipped and reported, never the
 * end of the watcher; a transient fault (registry unreachable) fails the restore, and the restarted watcher tries again.
 */
export async function restoreKind(
  bus: RestorePorts,
  topics: KindTopics,
  serde: Pick<Serde, 'decode'>,
  placed: { readonly partitions: number; readonly partitionOf: (key: string) => number },
  onPoison: (offset: string, err: unknown) => void,
): Promise<Restored> {
  const r: Reading = {
    state: new PublishedState(placed.partitions, placed.partitionOf),
    resumeFrom: undefined,
    watermark: undefined,
    records: 0,
    skipped: 0,
    markers: new Map(),
  };
  await bus.readToEnd(
    topics.state,
    async (record, partition) =>
      void (await applyRecord(r, serde, record, onPoison, (marker) => r.markers.set(partition, marker))),
  );
  const ends = new Map((await bus.offsets(topics.history)).map((p) => [p.partition, BigInt(p.high)]));
  const from = new Map([...ends].map(([p, end]) => [p, r.markers.get(p)?.next ?? end]));
  const tail = await readHistoryTail(
    bus,
    topics.history,
    { from, ends, floors: new Map([...r.markers].map(([p, m]) => [p, m.epoch])) },
    (record) => applyRecord(r, serde, record, onPoison, () => undefined),
  );
  const next = new Map([...ends].map(([p, end]) => [p, end > (from.get(p) ?? 0n) ? end : (from.get(p) ?? end)]));
  return {
    state: r.state,
    resumeFrom: r.resumeFrom,
    watermark: r.watermark,
    next,
    tail,
    records: r.records,
    skipped: r.skipped,
  };
}

type TailRange = {
  readonly from: ReadonlyMap<number, bigint>;
  readonly ends: ReadonlyMap<number, bigint>;
  readonly floors: Map<number, bigint>;
};

/**
 * readHistoryTail reads each history partition from `from` to its end, applying every record of an epoch not older
 * than the partition's floor (raised by the records read), and returns the state records of what it applied.
 */
async function readHistoryTail(
  bus: RestorePorts,
  history: string,
  range: TailRange,
  apply: (record: BusRecord) => Promise<WatchRecord<KubeObject> | undefined>,
): Promise<OutgoingRecord[]> {
  const tail: OutgoingRecord[] = [];
  const pending = [...range.from].filter(([p, start]) => start < (range.ends.get(p) ?? 0n));
  const ends = new Map(pending.map(([p]) => [partitionId({ topic: history, partition: p }), range.ends.get(p)!]));
  await readRange(
    bus,
    { topics: [history], ends, startAt: (tp) => String(range.from.get(tp.partition) ?? 0n) },
    async (record, tp) => {
      const epoch = epochOf(record.headers);
      if (epoch < (range.floors.get(tp.partition) ?? 0n)) return;
      range.floors.set(tp.partition, epoch);
      const event = await apply(record);
      if (event === undefined || event.type === 'Watermark') return;
      const key = record.key?.toString() ?? '';
      tail.push(
        { key, value: record.value, partition: tp.partition, headers: record.headers },
        ...(event.type === 'Deleted' ? [{ key, value: null, partition: tp.partition }] : []),
      );
    },
  );
  return tail;
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
