import {
  type Bus,
  type BusRecord,
  type OutgoingRecord,
  partitionId,
  readRange,
  type TopicPartition,
} from '@kcm-bus/runtime/bus/index.ts';
import { epochOf } from '@kcm-bus/schemas/watch-record.ts';

/** TailRange is a history topic's tail: where each partition ends now, where its tail starts, and its epoch floor. */
export type TailRange = {
  readonly topic: string;
  readonly from: ReadonlyMap<number, bigint>;
  readonly ends: ReadonlyMap<number, bigint>;
  readonly floors: Map<number, bigint>;
};

/**
 * historyRange is the tail of a kind's history its state did not hold: each partition from its marker's offset to its
 * end (from its end, nothing, where the state has no marker), with the marker's epoch for floor.
 */
export async function historyRange(
  bus: Pick<Bus, 'offsets'>,
  topic: string,
  markers: ReadonlyMap<number, { readonly next: bigint; readonly epoch: bigint }>,
): Promise<TailRange> {
  const ends = new Map((await bus.offsets(topic)).map((p) => [p.partition, BigInt(p.high)]));
  const from = new Map([...ends].map(([p, end]) => [p, markers.get(p)?.next ?? end]));
  return { topic, from, ends, floors: new Map([...markers].map(([p, m]) => [p, m.epoch])) };
}

/** Applied is what applying a history record said: its event's type, or undefined when it was skipped (poison). */
type Applied = { readonly type: string } | undefined;

/**
 * readHistoryTails reads every range's partitions from `from` to their ends, all in one group, applies (to the i-th
 * range's kind) every record of an epoch not older than its partition's floor (raised by the records read), and
 * returns each range's state records of what it applied (a watermark's none).
 */
export async function readHistoryTails(
  bus: Pick<Bus, 'joinGroup'>,
  ranges: readonly TailRange[],
  apply: (i: number, record: BusRecord) => Promise<Applied>,
): Promise<OutgoingRecord[][]> {
  const tails = ranges.map((): OutgoingRecord[] => []);
  const index = new Map(ranges.map((range, i) => [range.topic, i]));
  const ends = new Map(
    ranges.flatMap((range) =>
      [...range.from]
        .filter(([p, start]) => start < (range.ends.get(p) ?? 0n))
        .map(([p]) => [partitionId({ topic: range.topic, partition: p }), range.ends.get(p)!] as const),
    ),
  );
  const startAt = (tp: TopicPartition): string => String(ranges[index.get(tp.topic)!]!.from.get(tp.partition) ?? 0n);
  await readRange(bus, { topics: [...index.keys()], ends, startAt }, async (record, tp) => {
    const i = index.get(tp.topic)!;
    const floors = ranges[i]!.floors;
    const epoch = epochOf(record.headers);
    if (epoch < (floors.get(tp.partition) ?? 0n)) return;
    floors.set(tp.partition, epoch);
    const event = await apply(i, record);
    if (event !== undefined && event.type !== 'Watermark') tails[i]!.push(...tailRecords(record, tp, event.type));
  });
  return tails;
}

/** tailRecords are the state records of a history record applied: itself, and a tombstone after a Deleted. */
function tailRecords(record: BusRecord, tp: TopicPartition, type: string): OutgoingRecord[] {
  const key = record.key?.toString() ?? '';
  return [
    { key, value: record.value, partition: tp.partition, headers: record.headers },
    ...(type === 'Deleted' ? [{ key, value: null, partition: tp.partition }] : []),
  ];
}
