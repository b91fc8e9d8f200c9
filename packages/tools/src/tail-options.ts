import { FlagError, type CommandLine, type FlagSpec } from '@kcm-bus/runtime/service/index.ts';
import { watchTopic } from '@kcm-bus/schemas/kinds.ts';
import { CONNECTION_FLAGS, connectionOf, type Connection } from './connection-options.ts';
import { kindNamed } from './object-args.ts';

/** TailOptions say which records of which topic `tail` prints. */
export type TailOptions = Connection & {
  readonly topic: string;
  readonly fromBeginning: boolean;
  readonly follow: boolean;
  readonly key: string | undefined;
  /** Only records at or after this time (ms since the epoch). */
  readonly since: number | undefined;
};

/** TAIL_FLAGS are `tail`'s own flags (command line only) and the connection flags. */
export const TAIL_FLAGS: readonly FlagSpec[] = [
  {
    name: 'from-beginning',
    type: 'boolean',
    default: false,
    env: false,
    help: "Print the topic's history from its first record, then exit at its end (unless --follow).",
  },
  {
    name: 'follow',
    short: 'f',
    type: 'boolean',
    default: false,
    env: false,
    help: 'Keep printing new records after the history (with --from-beginning or --since).',
  },
  {
    name: 'key',
    type: 'string',
    default: '',
    env: false,
    help: 'Only the records of this key (NAMESPACE/NAME, or NAME for a cluster-scoped kind).',
  },
  {
    name: 'since',
    type: 'string',
    default: '',
    env: false,
    help: 'Only records at or after this time: an RFC 3339 time or an age (30s, 10m, 2h, 1d); implies the history.',
  },
  ...CONNECTION_FLAGS,
];

const UNITS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * tailOptions reads `tail TOPIC|KIND` and the TAIL_FLAGS: a topic by name, or a watched kind by plural, singular or
 * short name (`rs`, `replicasets`) for its history topic. Without --from-beginning or --since it follows new records
 * (like kafka-console-consumer); with them it prints the history and exits at the end unless --follow is given.
 */
export function tailOptions(line: CommandLine, env: NodeJS.ProcessEnv, now: number): TailOptions {
  const [name = ''] = line.positionals;
  const topic = name.includes('.') ? name : watchTopic(kindNamed(name));
  const since = line.flags.string('since') === '' ? undefined : sinceTime(line.flags.string('since'), now);
  const history = line.flags.boolean('from-beginning') || since !== undefined;
  const key = line.flags.string('key');
  return {
    topic,
    fromBeginning: history,
    follow: line.flags.boolean('follow') || !history,
    key: key === '' ? undefined : key,
    since,
    ...connectionOf(line.flags, env),
  };
}

function sinceTime(text: string, now: number): number {
  const age = /^(\d+)([smhd])$/.exec(text);
  if (age) return now - Number(age[1]) * (UNITS[age[2] ?? 's'] ?? 1000);
  const t = Date.parse(text);
  if (Number.isNaN(t))
    throw new FlagError(`--since ${JSON.stringify(text)} is neither an RFC 3339 time nor an age like 10m`);
  return t;
}
