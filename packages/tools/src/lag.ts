import type { Bus, TopicPartition } from '@kcm-bus/runtime/bus/index.ts';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/index.ts';
import type { CommandLine } from '@kcm-bus/runtime/service/index.ts';
import { isWatermarkKey, type WatchRecord } from '@kcm-bus/schemas/watch-record.ts';
import type { Command } from './command.ts';
import { connect, CONNECTION_FLAGS, connectionOf, type Connection } from './connection-options.ts';
import { formatLagTable, hasWatermarks, lagReport, partitionId, type GroupLag } from './lag-table.ts';

/** LagOptions say which groups `lag` reports and how. */
export type LagOptions = Connection & { readonly json: boolean; readonly group: string | undefined };

/** lagOptions reads `lag`'s flags (LAG_COMMAND's). */
export function lagOptions(line: CommandLine, env: NodeJS.ProcessEnv): LagOptions {
  const group = line.flags.string('group');
  return {
    json: line.flags.boolean('json'),
    group: group === '' ? undefined : group,
    ...connectionOf(line.flags, env),
  };
}

/** LAG_COMMAND is `kcm-bus lag [--json] [--group PREFIX]`. */
export const LAG_COMMAND: Command = {
  name: 'lag',
  synopsis: '[--json] [--group PREFIX]',
  positionals: [0, 0],
  summary: "each kcm-bus consumer group's lag per partition, and its inputs' watermark age",
  flags: [
    {
      name: 'json',
      type: 'boolean',
      default: false,
      env: false,
      help: 'The report as JSON (one GroupLag per group) instead of the table.',
    },
    {
      name: 'group',
      type: 'string',
      default: '',
      env: false,
      help: "The consumer groups whose name starts with this prefix, kcm-bus's or not (default: the kcm-bus services' groups).",
    },
    ...CONNECTION_FLAGS,
  ],
  run: async (line, env) => {
    await lag(lagOptions(line, env), (text) => console.log(text));
    return 0;
  },
};

/**
 * TAIL_WINDOWS are how many of a partition's last offsets are read for its newest watermark: a few first (an idle
 * partition holds a watermark and its commit marker every few seconds), more where a busy partition's tail had none.
 */
const TAIL_WINDOWS = [32, 512, 4096] as const;

/**
 * lag reports every kcm-bus service's consumer groups: committed offsets against each partition's end (the last
 * stable offset, as read_committed members see it) and, for watch and state topics, the age of the newest watermark.
 */
export async function lag(opts: LagOptions, print: (text: string) => void): Promise<GroupLag[]> {
  const { bus, registry } = connect(opts, 'kcm-bus-lag');
  const groups = await bus.groupOffsets();
  const topics = [...new Set(groups.flatMap((g) => g.partitions.map((p) => p.topic)))].sort();
  const ends = new Map<string, string>();
  for (const topic of topics)
    for (const p of await bus.offsets(topic)) ends.set(partitionId(topic, p.partition), p.high);
  const serde = new Serde(registry, 'lag', undefined, (s) => new AvroCodec(s));
  const watermarks = await newestWatermarks(
    bus,
    topics.filter(hasWatermarks),
    async (v) => (await serde.decode(v)).value as WatchRecord<unknown>,
  );
  const report = lagReport({ groups, ends, watermarks }, Date.now(), opts.group);
  print(opts.json ? JSON.stringify(report, null, 2) : formatLagTable(report));
  return report;
}

/** newestWatermarks reads the tail of each partition of the topics for its newest watermark's observedAt (ms). */
async function newestWatermarks(
  bus: Pick<Bus, 'offsets' | 'readTail'>,
  topics: readonly string[],
  decode: (value: Buffer) => Promise<WatchRecord<unknown>>,
): Promise<Map<string, number>> {
  const newest = new Map<string, number>();
  const observe = async (key: Buffer | null, value: Buffer | null, tp: TopicPartition): Promise<void> => {
    if (value === null || !isWatermarkKey(key?.toString() ?? '')) return;
    const at = Date.parse((await decode(value)).observedAt);
    if (!Number.isNaN(at))
      newest.set(
        partitionId(tp.topic, tp.partition),
        Math.max(at, newest.get(partitionId(tp.topic, tp.partition)) ?? 0),
      );
  };
  let missing = topics;
  for (const count of TAIL_WINDOWS) {
    if (missing.length === 0) break;
    await bus.readTail(missing, count, (r, tp) => observe(r.key, r.value, tp));
    missing = await topicsWithout(bus, missing, newest);
  }
  return newest;
}

/** topicsWithout are the topics with a non-empty partition that has no watermark yet. */
async function topicsWithout(
  bus: Pick<Bus, 'offsets'>,
  topics: readonly string[],
  found: ReadonlyMap<string, number>,
): Promise<string[]> {
  const missing: string[] = [];
  for (const topic of topics) {
    if (
      (await bus.offsets(topic)).some(
        (p) => BigInt(p.high) > BigInt(p.low) && !found.has(partitionId(topic, p.partition)),
      )
    )
      missing.push(topic);
  }
  return missing;
}
