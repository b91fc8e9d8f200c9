import { randomUUID } from 'node:crypto';
import type { BusRecord } from '@kcm-bus/runtime/bus/index.ts';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/index.ts';
import { classifyFault } from '@kcm-bus/runtime/faults/index.ts';
import type { Command } from './command.ts';
import { connect } from './connection-options.ts';
import { TAIL_FLAGS, tailOptions, type TailOptions } from './tail-options.ts';

/** TAIL_COMMAND is `kcm-bus tail TOPIC|KIND [--from-beginning] [--follow] [--key K] [--since T]` (tailOptions). */
export const TAIL_COMMAND: Command = {
  name: 'tail',
  synopsis: 'TOPIC|KIND [--from-beginning] [--follow] [--key KEY] [--since TIME|AGE]',
  positionals: [1, 1],
  summary: "a kcm-bus topic as JSON lines, decoded with the registry's schemas",
  about:
    'TOPIC by name (kcm.mutations), or a watched kind (pods, rs) for its history topic. Without --from-beginning or ' +
    '--since it follows new records until Ctrl-C; with them it prints the history and exits at its end unless --follow.',
  flags: TAIL_FLAGS,
  run: async (line, env) => {
    await tail(tailOptions(line, env, Date.now()), (text) => console.log(text));
    return 0;
  },
};

/**
 * tail prints a kcm-bus topic as JSON lines ({topic, partition, offset, timestamp, key, value}), values
 * decoded with the schema each record names in the registry; a tombstone prints value null. It reads in an
 * ephemeral consumer group, deleted when it ends, so tails leave no groups behind.
 */
export async function tail(opts: TailOptions, print: (line: string) => void): Promise<void> {
  const { bus, registry } = connect(opts, 'kcm-bus-tail');
  const serde = new Serde(registry, opts.topic, undefined, (s) => new AvroCodec(s));
  const show = async (record: BusRecord, partition: number): Promise<void> => {
    const key = record.key?.toString() ?? null;
    if (opts.key !== undefined && key !== opts.key) return;
    if (opts.since !== undefined && Number(record.timestamp) < opts.since) return;
    const at = {
      topic: opts.topic,
      partition,
      offset: record.offset,
      timestamp: new Date(Number(record.timestamp)).toISOString(),
      key,
    };
    try {
      print(JSON.stringify({ ...at, value: record.value === null ? null : (await serde.decode(record.value)).value }));
    } catch (err) {
      // A record that is not ours (or is damaged) is shown as such, with its bytes, and the tail goes on.
      if (classifyFault(err) === 'transient') throw err;
      print(
        JSON.stringify({
          ...at,
          undecodable: err instanceof Error ? err.message : String(err),
          base64: record.value?.toString('base64'),
        }),
      );
    }
  };
  if (!opts.follow) return bus.readToEnd(opts.topic, show);
  const { promise: ended, resolve, reject } = Promise.withResolvers<void>();
  const member = await bus.joinGroup({
    groupId: `kcm-bus-tail-${randomUUID()}`,
    topics: [opts.topic],
    fromBeginning: opts.fromBeginning,
    ephemeral: true,
    onBatch: async (batch) => {
      for (const record of batch.records) await show(record, batch.partition);
    },
    onCrash: (err, restart) => {
      if (!restart) reject(err);
    },
  });
  process.once('SIGINT', resolve);
  process.once('SIGTERM', resolve);
  try {
    await ended;
  } finally {
    await member.stop();
  }
}
