import type { Mutation } from '../mutation/mutation.ts';
import type { TimedDecision } from './replay-input.ts';

/**
 * KeyVerdict compares what the deployed controller decided for one key over the window (its mutations on
 * kcm.mutations) with what the replay decided: `onlyDeployed` and `onlyReplayed` list the differences.
 */
export type KeyVerdict = {
  readonly key: string;
  readonly deployed: number;
  readonly replayed: number;
  readonly onlyDeployed: readonly string[];
  readonly onlyReplayed: readonly string[];
};

/**
 * signature says what a mutation does, without what only its run decides (its id, the generated name of a
 * generateName create, resourceVersions): `Create pods demo/web-*`, `Delete pods demo/web-x7k2p`,
 * `UpdateStatus replicationcontrollers demo/web {"replicas":3,…}` (the status alone), `Event Normal SuccessfulCreate …`.
 */
export function signature(m: Mutation): string {
  const target = `${m.target.resource}${m.target.subresource ? `/${m.target.subresource}` : ''} ${m.target.namespace ? `${m.target.namespace}/` : ''}`;
  switch (m.verb) {
    case 'Create':
      return `Create ${target}${createdName(m)}`;
    case 'Delete':
      return `Delete ${target}${m.target.name}`;
    case 'Patch':
      return `Patch ${target}${m.target.name} ${m.patch ?? ''}`;
    case 'RecordEvent':
      return `Event ${m.event?.type ?? ''} ${m.event?.reason ?? ''} ${m.target.namespace ?? ''}/${m.event?.involvedObject.name ?? ''}: ${m.event?.message ?? ''}`;
    case 'UpdateStatus':
      return `UpdateStatus ${target}${m.target.name} ${canonical((parse(m.body) as { status?: unknown } | undefined)?.status)}`;
    default:
      return `${m.verb} ${target}${m.target.name} ${canonical(withoutVersion(m.body))}`;
  }
}

/**
 * compareDecisions gives, per key either side wrote anything for, what only one side did; keys in order. A replayed
 * sync that decided nothing (the replay records those too) agrees with the world as it then was: what the replay had
 * written to an object before it is superseded by the deployed controller's last write to it, if any.
 */
export function compareDecisions(
  deployed: readonly TimedDecision[],
  replayed: readonly TimedDecision[],
): readonly KeyVerdict[] {
  const keys = [...new Set([...deployed, ...replayed].filter((d) => d.mutations.length > 0).map((d) => d.key))].sort();
  return keys.map((key) => {
    const a = factsOf(deployed, key);
    const b = agreeing(factsOf(replayed, key), a, lastNoOp(replayed, key));
    return {
      key,
      deployed: a.count,
      replayed: b.count,
      onlyDeployed: difference(listed(a), listed(b)),
      onlyReplayed: difference(listed(b), listed(a)),
    };
  });
}

/** same: the verdict found no difference. */
export function same(v: KeyVerdict): boolean {
  return v.onlyDeployed.length === 0 && v.onlyReplayed.length === 0;
}

/**
 * Facts are what a run's mutations of one key amount to, comparable with another run's: every create and delete
 * (three creates are not two), each event once, and of the writes that set an object (Update, UpdateStatus, Patch)
 * the last per object, because how often a status or an Endpoints object is rewritten on the way depends on how
 * events fell into syncs, which a replay reproduces only roughly; where it ends does not.
 */
type Facts = {
  readonly count: number;
  readonly counted: readonly string[];
  readonly events: ReadonlySet<string>;
  readonly last: ReadonlyMap<string, { readonly at: number; readonly text: string }>;
};

function factsOf(decisions: readonly TimedDecision[], key: string): Facts {
  const mine = [...decisions].filter((d) => d.key === key).sort((x, y) => x.at - y.at);
  const last = new Map<string, { at: number; text: string }>();
  const events = new Set<string>();
  const counted: string[] = [];
  for (const { at, mutations } of mine) {
    for (const m of mutations) {
      if (m.verb === 'Create' || m.verb === 'Delete') counted.push(signature(m));
      else if (m.verb === 'RecordEvent') events.add(signature(m));
      else
        last.set(
          `${m.verb} ${m.target.resource}/${m.target.subresource ?? ''} ${m.target.namespace ?? ''}/${m.target.name}`,
          { at, text: signature(m) },
        );
    }
  }
  return { count: mine.reduce((n, d) => n + d.mutations.length, 0), counted, events, last };
}

/** agreeing: each object the replay last wrote before `agreedAt`, a sync content with the world, ends as the world does. */
function agreeing(replay: Facts, deployed: Facts, agreedAt: number): Facts {
  const last = new Map(replay.last);
  for (const object of new Set([...replay.last.keys(), ...deployed.last.keys()])) {
    const world = deployed.last.get(object);
    if (agreedAt <= Math.max(world?.at ?? -Infinity, replay.last.get(object)?.at ?? -Infinity)) continue;
    if (world === undefined) last.delete(object);
    else last.set(object, world);
  }
  return { ...replay, last };
}

function lastNoOp(decisions: readonly TimedDecision[], key: string): number {
  return Math.max(-Infinity, ...decisions.filter((d) => d.key === key && d.mutations.length === 0).map((d) => d.at));
}

function listed(f: Facts): string[] {
  return [...f.counted, ...f.events, ...[...f.last.values()].map((l) => l.text)];
}

/** difference lists a's facts b lacks, one for one; `×n` marks repeats. */
function difference(a: readonly string[], b: readonly string[]): string[] {
  const have = new Map<string, number>();
  for (const s of b) have.set(s, (have.get(s) ?? 0) + 1);
  const missing = new Map<string, number>();
  for (const s of a) {
    const n = have.get(s) ?? 0;
    if (n > 0) have.set(s, n - 1);
    else missing.set(s, (missing.get(s) ?? 0) + 1);
  }
  return [...missing].map(([s, n]) => (n > 1 ? `${s} ×${n}` : s));
}

function createdName(m: Mutation): string {
  const meta = (parse(m.body) as { metadata?: { generateName?: string } } | undefined)?.metadata;
  return m.target.name === '' && meta?.generateName ? `${meta.generateName}*` : m.target.name;
}

function withoutVersion(body: string | null): unknown {
  const o = parse(body) as { metadata?: Record<string, unknown> } | undefined;
  if (o?.metadata === undefined) return o;
  const { resourceVersion: _rv, managedFields: _mf, ...metadata } = o.metadata;
  return { ...o, metadata };
}

function parse(text: string | null): unknown {
  try {
    return text === null ? undefined : JSON.parse(text);
  } catch {
    return text;
  }
}

/** canonical is JSON with object keys sorted, so equal objects print equally. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  return `{${Object.keys(v)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
    .join(',')}}`;
}
