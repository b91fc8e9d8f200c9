import { CONTROLLERS } from '@kcm-bus/catalog/controllers.ts';
import type { MutationResult, MutationCause } from '@kcm-bus/runtime/mutation/index.ts';
import type { Version } from './history-format.ts';
import { at, diffObjects, formatDiffLine, isArrayOf, type DiffLine, type Json } from './object-diff.ts';

/**
 * Evidence is what trace found for one cause of a mutation: a tick or a member becoming active (no record), a result of an earlier mutation
 * (with the result, when still in kcm.mutation-results), a version of a watched object (with the version before it
 * in the history, if any), or nothing (why says what is missing).
 */
export type Evidence =
  | { readonly kind: 'tick' }
  | { readonly kind: 'activated' }
  | { readonly kind: 'result'; readonly result: MutationResult | undefined }
  | {
      readonly kind: 'version';
      readonly objectKind: string;
      readonly key: string;
      readonly version: Version;
      readonly previous: Version | undefined;
    }
  | { readonly kind: 'unresolved'; readonly why: string };

/** Explanation is one cause in words, with the object diff behind it (empty when none applies). */
export type Explanation = {
  readonly cause: MutationCause;
  readonly kind: Evidence['kind'];
  readonly text: string;
  readonly diff: readonly DiffLine[];
};

/** BRIEF_CHANGES is how many changed fields an explanation names beside the one it is about. */
const BRIEF_CHANGES = 3;

/** explainCause puts one cause and its evidence in words: one explainer per kind of cause. */
export function explainCause(cause: MutationCause, e: Evidence): Explanation {
  const ref = `${cause.topic} ${cause.partition}@${cause.offset}`;
  switch (e.kind) {
    case 'tick':
      return { cause, kind: e.kind, text: `periodic tick at ${clockTime(cause.offset)}`, diff: [] };
    case 'activated':
      return {
        cause,
        kind: e.kind,
        text: `the member became active at ${clockTime(cause.offset)}: a pass over its global inputs`,
        diff: [],
      };
    case 'result':
      return { cause, kind: e.kind, text: explainResult(e.result, ref), diff: [] };
    case 'unresolved':
      return { cause, kind: e.kind, text: `${e.why} (${ref})`, diff: [] };
    case 'version': {
      const diff = e.previous === undefined ? [] : diffObjects(e.previous.object, e.version.object);
      const what = SCALED[e.objectKind] === undefined ? explainObject(e, diff) : explainScaled(e, diff);
      return { cause, kind: e.kind, text: `${what} (${ref}, rv ${e.version.resourceVersion})`, diff };
    }
  }
}

/** clockTime is a cause's time of day (its offset is epoch ms): `10:42:07Z`. */
function clockTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)}Z`;
}

/** explainResult: a sync that followed an earlier mutation's result (upstream: a retry after a failed write). */
function explainResult(result: MutationResult | undefined, ref: string): string {
  if (result === undefined) return `retry after a result no longer in the topic (${ref})`;
  return `retry after ${outcomeOf(result)} of mutation ${result.mutationId} (${result.verb} ${result.name ?? result.target.name})`;
}

/** outcomeOf is a result in brief: `Applied 200`, `Failed 422 Invalid`, or that none came (yet). */
export function outcomeOf(result: MutationResult | undefined): string {
  if (result === undefined) return 'no result';
  return [result.outcome, result.status, result.reason]
    .filter((p) => p !== null && p !== undefined && p !== 0)
    .join(' ');
}

/** SCALED are the kinds told by their replicas, with the short name an explanation gives them. */
const SCALED: Readonly<Record<string, string>> = { ReplicationController: 'RC', ReplicaSet: 'ReplicaSet' };

/** explainScaled tells an RC's or a ReplicaSet's version by its replicas: created with, went from … to, the other changes in brief. */
function explainScaled(e: Extract<Evidence, { kind: 'version' }>, diff: readonly DiffLine[]): string {
  const name = `${SCALED[e.objectKind] ?? e.objectKind} ${e.key}`;
  const replicas = at(e.version.object, 'spec.replicas');
  if (e.version.type === 'Deleted') return `${name} was deleted`;
  if (e.previous === undefined) return `${name} was created with ${String(replicas ?? 1)} replicas`;
  const scaled = diff.find((d) => d.path === 'spec.replicas');
  const others = diff.filter((d) => d !== scaled).map((d) => d.path);
  const also = others.length === 0 ? '' : ` (also changed: ${briefList(others)})`;
  if (scaled)
    return `${name} went from ${String(at(e.previous.object, 'spec.replicas') ?? 1)} to ${String(replicas ?? 1)} replicas${also}`;
  return others.length === 0 ? `${name} was seen again unchanged` : `${name} changed: ${briefList(others)}`;
}

/** explainObject tells any other version (a pod's, a service's) by what changed on it. */
function explainObject(e: Extract<Evidence, { kind: 'version' }>, diff: readonly DiffLine[]): string {
  const name = `${e.objectKind === 'Pod' ? 'pod' : e.objectKind} ${e.key}`;
  if (e.version.type === 'Deleted') return `${name} was deleted`;
  if (e.previous === undefined) return `${name} was created`;
  if (diff.length === 0) return `${name} was seen again unchanged`;
  const lines = diff.slice(0, BRIEF_CHANGES).map(formatDiffLine);
  return `${name} changed: ${lines.join(', ')}${diff.length > BRIEF_CHANGES ? ` and ${diff.length - BRIEF_CHANGES} more` : ''}`;
}

function briefList(items: readonly string[]): string {
  return items.length > BRIEF_CHANGES
    ? `${items.slice(0, BRIEF_CHANGES).join(', ')} and ${items.length - BRIEF_CHANGES} more`
    : items.join(', ');
}

/** RECONCILED_KINDS are the plural of the objects each controller reconciles (its mutations' reconcileKey), the catalog's. */
export const RECONCILED_KINDS: Readonly<Record<string, string>> = Object.fromEntries(
  CONTROLLERS.flatMap((c) => (c.reconciles === null ? [] : [[c.name, c.reconciles]])),
);

/**
 * explainReconciled tells what the reconciled object wanted when a mutation was decided (its last version by then):
 * an RC's or a ReplicaSet's replicas and when they last changed. A sync acts on the whole state, while its recorded cause is only the
 * record that last enqueued the key (a result, a pod), so this names what the sync saw whatever the cause.
 */
export function explainReconciled(
  kind: string,
  key: string,
  versions: readonly Version[],
  when: number,
): string | undefined {
  const seen = versions.filter((v) => v.timestamp <= when);
  const last = seen.at(-1);
  if (last === undefined) return undefined;
  const short = SCALED[kind];
  if (short === undefined) return `${kind} ${key} was at rv ${last.resourceVersion}`;
  const replicas = (v: Version | undefined): string => String(at(v?.object, 'spec.replicas') ?? 1);
  const i = seen.findLastIndex((v, j) => j > 0 && replicas(v) !== replicas(seen[j - 1]));
  const changed = seen[i];
  if (changed === undefined) return `${short} ${key} wanted ${replicas(last)} replicas, as created`;
  const time = new Date(changed.timestamp).toISOString().slice(11, 19);
  return `${short} ${key} wanted ${replicas(last)} replicas: it went from ${replicas(seen[i - 1])} to ${replicas(changed)} replicas at rv ${changed.resourceVersion} (${time}Z)`;
}

/**
 * podState is a pod's state in the words upstream's ActivePodsWithRanks orders them by when it picks pods to delete
 * (unscheduled < pending < not ready < ready), plus terminating and finished.
 */
export function podState(pod: Json): string {
  const phase = at(pod, 'status.phase');
  if (at(pod, 'metadata.deletionTimestamp') !== undefined) return 'terminating';
  if (phase === 'Succeeded' || phase === 'Failed') return phase.toLowerCase();
  if (at(pod, 'spec.nodeName') === undefined) return 'pending (unscheduled)';
  if (phase !== 'Running') return 'pending';
  const ready = isArrayOf(at(pod, 'status.conditions')).some(
    (c) => at(c, 'type') === 'Ready' && at(c, 'status') === 'True',
  );
  return ready ? 'ready' : 'not ready';
}
