import type { MutationResult, Mutation, MutationCause } from '@kcm-bus/runtime/mutation/index.ts';
import { ACTIVATED_TOPIC, TICK_TOPIC } from '@kcm-bus/runtime/controller/index.ts';
import { MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { WATCHED_KINDS, type WatchedKind } from '@kcm-bus/schemas/kinds.ts';
import { compareResourceVersion } from '@kcm-bus/schemas/watch-record.ts';
import {
  explainCause,
  explainReconciled,
  outcomeOf,
  podState,
  RECONCILED_KINDS,
  type Evidence,
  type Explanation,
} from './explain.ts';
import { explainRollout } from './explain-rollout.ts';
import type { Version } from './history-format.ts';

/** InputRecord is a watch or state record trace read at a cause's offset. */
export type InputRecord = Version & { readonly key: string };

/**
 * TraceFound is what trace read: the mutations that targeted the object (with their place in kcm.mutations), results
 * by mutation id, results read at causes' offsets (by `partition@offset`), state records read at causes' offsets (by
 * causeRef), and the history of every object involved (by plural, then key).
 */
export type TraceFound = {
  readonly mutations: readonly { readonly partition: number; readonly offset: string; readonly mutation: Mutation }[];
  readonly results: ReadonlyMap<string, MutationResult>;
  readonly causeResults: ReadonlyMap<string, MutationResult>;
  readonly inputs: ReadonlyMap<string, InputRecord>;
  readonly histories: ReadonlyMap<string, ReadonlyMap<string, readonly Version[]>>;
};

/** TraceStep is one mutation of the object with its outcome, its causes explained, and the object as it was just before. */
export type TraceStep = TraceFound['mutations'][number] & {
  readonly result: MutationResult | undefined;
  readonly causes: readonly Explanation[];
  readonly before: Version | undefined;
  /**
   * context is what the reconciled object wanted then, when no cause already shows its version; for a Deployment's
   * ReplicaSet, the rollout step the write was (explainRollout).
   */
  readonly context: string | undefined;
};

/** causeRef names a cause's record: `topic partition@offset`. */
export function causeRef(c: Pick<MutationCause, 'topic' | 'partition' | 'offset'>): string {
  return `${c.topic} ${c.partition}@${c.offset}`;
}

/** watchedKindOf is the kind of a watch or state topic, undefined for any other topic. */
export function watchedKindOf(topic: string): WatchedKind | undefined {
  const plural = /^kcm\.(?:state|watch)\.(.+)$/.exec(topic)?.[1];
  return WATCHED_KINDS.find((k) => k.plural === plural);
}

/**
 * evidenceFor resolves a cause: a tick; a member becoming active; a result read at its offset; a watch version found by the key and
 * resourceVersion the state record at its offset (or, once compacted away, the cause itself) names, with the version
 * before it in the history. An older cause without key whose state record is gone cannot be resolved.
 */
export function evidenceFor(cause: MutationCause, found: TraceFound): Evidence {
  if (cause.topic === TICK_TOPIC) return { kind: 'tick' };
  if (cause.topic === ACTIVATED_TOPIC) return { kind: 'activated' };
  if (cause.topic === MUTATION_TOPICS.results)
    return { kind: 'result', result: found.causeResults.get(`${cause.partition}@${cause.offset}`) };
  const kind = watchedKindOf(cause.topic);
  if (kind === undefined) return { kind: 'unresolved', why: 'input of a topic trace does not know' };
  const input = found.inputs.get(causeRef(cause));
  const [key, rv] = [input?.key ?? cause.key, input?.resourceVersion ?? cause.resourceVersion];
  if (key == null || rv == null) return { kind: 'unresolved', why: 'input no longer in the state topic' };
  const versions = found.histories.get(kind.plural)?.get(key) ?? [];
  const i = versions.findIndex((v) => v.resourceVersion === rv);
  const version = versions[i] ?? input;
  if (version === undefined)
    return { kind: 'unresolved', why: `input ${key} rv ${rv} no longer in the state topic nor in the audit window` };
  const previous =
    i >= 0 ? versions[i - 1] : versions.filter((v) => compareResourceVersion(v.resourceVersion, rv) === -1).at(-1);
  return { kind: 'version', objectKind: kind.kind, key, version, previous };
}

/** traceSteps explains each mutation of the object `key` of `kind`, in the order they were published. */
export function traceSteps(kind: WatchedKind, key: string, found: TraceFound): TraceStep[] {
  const history = found.histories.get(kind.plural)?.get(key) ?? [];
  return found.mutations.map((m) => {
    const evidence = m.mutation.cause.map((c) => [c, evidenceFor(c, found)] as const);
    const when = Date.parse(m.mutation.createdAt);
    const before = history.filter((v) => v.timestamp <= when).at(-1);
    return {
      ...m,
      result: found.results.get(m.mutation.id),
      causes: evidence.map(([c, e]) => explainCause(c, e)),
      before,
      context:
        rolloutOf(m.mutation, before, found, when) ??
        (evidence.some(([, e]) => e.kind === 'version' && e.key === m.mutation.reconcileKey)
          ? undefined
          : contextOf(m.mutation, found, when)),
    };
  });
}

/** rolloutOf is explainRollout for a Deployment controller's write of a ReplicaSet. */
function rolloutOf(m: Mutation, before: Version | undefined, found: TraceFound, when: number): string | undefined {
  if (RECONCILED_KINDS[m.controller] !== 'deployments' || m.target.kind !== 'ReplicaSet' || m.reconcileKey === null)
    return undefined;
  return explainRollout(m, before, found.histories.get('deployments')?.get(m.reconcileKey) ?? [], when);
}

/** contextOf is explainReconciled for the object a mutation's controller was reconciling, when trace read its history. */
function contextOf(m: Mutation, found: TraceFound, when: number): string | undefined {
  const kind = WATCHED_KINDS.find((k) => k.plural === RECONCILED_KINDS[m.controller]);
  if (kind === undefined || m.reconcileKey == null) return undefined;
  return explainReconciled(
    kind.kind,
    m.reconcileKey,
    found.histories.get(kind.plural)?.get(m.reconcileKey) ?? [],
    when,
  );
}

const PAST: Readonly<Record<Mutation['verb'], string>> = {
  Create: 'created',
  Update: 'updated',
  UpdateStatus: 'status updated',
  Patch: 'patched',
  Delete: 'deleted',
  RecordEvent: 'event recorded',
  PopulateToken: 'token populated',
  DeleteNamespaceContent: 'content deleted',
  FinalizeNamespace: 'finalized',
};

/**
 * chainLine is one mutation as a causal chain: `deleted by replicationcontroller-controller at 10:42:07Z (Applied
 * 200): RC demo/web went from 7 to 3 replicas (kcm.state.replicationcontrollers 2@1234, rv 5678); this pod was ready`.
 */
export function chainLine(kind: WatchedKind, step: TraceStep): string {
  const m = step.mutation;
  const causes =
    [...step.causes.map((c) => c.text), ...(step.context === undefined ? [] : [step.context])].join('; ') ||
    'no cause recorded';
  const was =
    step.before === undefined
      ? ''
      : kind.kind === 'Pod'
        ? `; this pod was ${podState(step.before.object)}`
        : `; this ${kind.kind} was at rv ${step.before.resourceVersion}`;
  return `${PAST[m.verb]} by ${m.controller} at ${m.createdAt.slice(11, 19)}Z (${outcomeOf(step.result)}): ${causes}${was}`;
}

/** formatTrace is the text `trace` prints: a heading, then per mutation its chain and where to find it. */
export function formatTrace(kind: WatchedKind, key: string, steps: readonly TraceStep[]): string[] {
  const heading = `${kind.plural} ${key}: ${steps.length} mutation${steps.length === 1 ? '' : 's'} in ${MUTATION_TOPICS.mutations}`;
  return [
    heading,
    ...steps.flatMap((s) => [
      chainLine(kind, s),
      `    mutation ${s.mutation.id} (${MUTATION_TOPICS.mutations} ${s.partition}@${s.offset}, created ${s.mutation.createdAt})`,
      ...(s.result && s.result.outcome !== 'Applied' && s.result.message ? [`    result: ${s.result.message}`] : []),
    ]),
  ];
}

/** stepJson is one mutation as `trace --json` prints it. */
export function stepJson(kind: WatchedKind, s: TraceStep): Record<string, unknown> {
  const m = s.mutation;
  const result =
    s.result === undefined
      ? null
      : {
          outcome: s.result.outcome,
          status: s.result.status,
          reason: s.result.reason ?? null,
          message: s.result.message,
          appliedAt: s.result.appliedAt,
        };
  return {
    mutationId: m.id,
    controller: m.controller,
    verb: m.verb,
    createdAt: m.createdAt,
    record: { topic: MUTATION_TOPICS.mutations, partition: s.partition, offset: s.offset },
    result,
    causes: s.causes.map((c) => ({ ...c.cause, kind: c.kind, text: c.text, diff: c.diff })),
    context: s.context ?? null,
    before:
      s.before === undefined
        ? null
        : {
            resourceVersion: s.before.resourceVersion,
            ...(kind.kind === 'Pod' ? { state: podState(s.before.object) } : {}),
          },
    chain: chainLine(kind, s),
  };
}
