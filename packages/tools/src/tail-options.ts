import { parseArgs } from 'node:util';
import { watchTopic } from '@kcm-bus/schemas/kinds.ts';
import { CONNECTION_OPTIONS, connectionOf, type Connection } from './connection-options.ts';
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

const UNITS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * parseTailOptions reads `tail TOPIC|KIND [--from-beginning] [--follow] [--key K] [--since T]`: a topic by name, or a
 * watched kind by plural, singular or short name (`rs`, `replicasets`) for its history topic. Without
 * --from-beginning or --since it follows new records (like kafka-console-consumer); with them it prints the
 * history and exits at the end unless --follow is given. --since takes an RFC 3339 time or an age (30s, 10m, 2h, 1d).
 */
export function parseTailOptions(argv: readonly string[], env: NodeJS.ProcessEnv, now: number): TailOptions {
  const { values, positionals } = parseArgs({
    args: [...argv], allowPositionals: true,
    options: {
      'from-beginning': { type: 'boolean' }, follow: { type: 'boolean', short: 'f' }, key: { type: 'string' }, since: { type: 'string' },
      ...CONNECTION_OPTIONS,
    },
  });
  const [name] = positionals;
  if (!name) throw new Error('usage: kcm-bus tail TOPIC|KIND [--from-beginning] [--follow] [--key KEY] [--since TIME|AGE]');
  const topic = name.includes('.') ? name : watchTopic(kindNamed(name));
  const since = values.since === undefined ? undefined : sinceTime(values.since, now);
  const history = values['from-beginning'] === true || since !== undefined;
  return {
    topic, fromBeginning: history, follow: values.follow === true || !history, key: values.key, since, ...connectionOf(values, env),
  };
}

function sinceTime(text: string, now: number): number {
  const age = /^(\d+)([smhd])$/.exec(text);
  if (age) return now - Number(age[1]) * (UNITS[age[2] ?? 's'] ?? 1000);
  const t = Date.parse(text);
  if (Number.isNaN(t)) throw new Error(`--since ${JSON.stringify(text)} is neither an RFC 3339 time nor an age like 10m`);
  return t;
}
