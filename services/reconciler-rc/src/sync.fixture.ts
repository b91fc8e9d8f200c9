import { converge, verbs } from '@kcm-bus/k8s/reconcile.fixture.ts';
import { type MutationCause, type MutationResult, validateMutation } from '@kcm-bus/runtime/mutation/index.ts';
import {
  type ControlleeExpectations,
  expectationsView,
  lowerExpectations,
  recordFor,
} from '@kcm-bus/runtime/expectations/index.ts';
import type { ExpectationChange, ExpectationsView, Decision } from '@kcm-bus/runtime/controller/index.ts';
import { listers, type PodWatchEvent, type SetCluster } from './cluster.fixture.ts';
import { type ExpectationObservation, onPodEvent } from './handlers.ts';
import { CAUSE, T0 } from './rc.fixture.ts';
import { REPLICATION_CONTROLLERS, type ReplicaSetKind } from './replica-set-kind.ts';
import { DEFAULT_REPLICA_SET_CONFIG, syncReplicaSet } from './sync-replica-set.ts';

/** SATISFIED is the expectations of a key with nothing pending (no record). */
export const SATISFIED: ExpectationsView = { satisfied: true, pendingCreates: [], pendingDeletes: [] };

/** UNSATISFIED is the expectations of a key still waiting for observations. */
export const UNSATISFIED: ExpectationsView = { satisfied: false, pendingCreates: [], pendingDeletes: [] };

/** SyncOptions vary one reconcile: expectations, failures since the last one, clock, burstReplicas. */
export type SyncOptions = {
  readonly expectations?: ExpectationsView;
  readonly failures?: readonly MutationResult[];
  readonly now?: Date;
  readonly burstReplicas?: number;
  readonly cause?: readonly MutationCause[];
  /** fresh: the sync reads fresh (default: as upstream's uncached GET, which the fake client answers from the cluster). */
  readonly fresh?: boolean;
  /** kind: which manager syncs (default: the RC's). */
  readonly kind?: ReplicaSetKind;
};

let offset = 1000;

/**
 * nextCause is a fresh input offset: consecutive reconciles read different inputs (the RC's own earlier writes, at
 * least), so their mutation ids differ; reusing one cause would reuse the names of created pods.
 */
export function nextCause(): readonly MutationCause[] {
  return [{ topic: 'kcm.watch.pods', partition: 0, offset: offset++ }];
}

/** sync reconciles key against the cluster (upstream's manager.syncReplicaSet), checking every mutation is valid. */
export function sync(c: SetCluster, key: string, o: SyncOptions = {}): Decision {
  const kind = o.kind ?? REPLICATION_CONTROLLERS;
  const result = syncReplicaSet(key, {
    kind,
    ...listers(c, kind),
    expectations: o.expectations ?? SATISFIED,
    failures: o.failures ?? [],
    now: o.now ?? T0,
    config: {
      ...DEFAULT_REPLICA_SET_CONFIG,
      ...(o.burstReplicas === undefined ? {} : { burstReplicas: o.burstReplicas }),
    },
    cause: o.cause ?? CAUSE,
    fresh: o.fresh ?? true,
  });
  for (const m of result.mutations) validateMutation(JSON.parse(JSON.stringify(m)));
  return result;
}

/** podWrites counts Create, Delete and Patch mutations: upstream's validateSyncReplicaSet(creates, deletes, patches). */
export function podWrites(result: Decision): { creates: number; deletes: number; patches: number } {
  const v = verbs(result);
  return { creates: v['Create'] ?? 0, deletes: v['Delete'] ?? 0, patches: v['Patch'] ?? 0 };
}

/**
 * convergeRc is the convergence check (k8s converge) with sync: expectations satisfied, a fresh cause each round.
 * Returns the number of rounds that wrote something.
 */
export function convergeRc(
  c: SetCluster,
  key: string,
  o: Omit<SyncOptions, 'expectations' | 'failures' | 'cause'> & { maxRounds?: number } = {},
): number {
  const { maxRounds, ...options } = o;
  const reconcile = (k: string, failures: readonly MutationResult[]): Decision =>
    sync(c, k, { ...options, failures, cause: nextCause() });
  return converge(c, key, reconcile, { now: o.now ?? T0, ...(maxRounds === undefined ? {} : { maxRounds }) });
}

/**
 * ExpectationsModel is the runtime's expectations rules (expectations.ts) over an in-memory map, for pipeline
 * tests: records set by a reconcile's ExpectationChange, lowered by the handlers' observations and by failed results.
 */
export type ExpectationsModel = {
  readonly view: (key: string) => ExpectationsView;
  readonly record: (key: string, change: ExpectationChange | undefined) => void;
  readonly observe: (o: ExpectationObservation | undefined) => void;
  readonly lower: (failures: readonly MutationResult[]) => void;
  readonly pending: (key: string) => { add: number; del: number } | undefined;
};

/** expectationsModel starts with no records; it never expires them. */
export function expectationsModel(): ExpectationsModel {
  const records = new Map<string, ControlleeExpectations>();
  const lower = (key: string | null | undefined, creates: readonly string[], deletes: readonly string[]): void => {
    const r = key == null ? undefined : records.get(key);
    if (key != null && r !== undefined) records.set(key, lowerExpectations(r, creates, deletes));
  };
  return {
    view: (key) => expectationsView(records.get(key), 0, Infinity),
    record: (key, change) => {
      if (change === undefined) return;
      const r = recordFor(change, 0);
      if (r === undefined) records.delete(key);
      else records.set(key, r);
    },
    observe: (o) => {
      if (o !== undefined)
        lower(o.setKey, o.kind === 'creation' ? [o.podKey] : [], o.kind === 'deletion' ? [o.podKey] : []);
    },
    lower: (failures) => {
      for (const f of failures) {
        const target = `${f.target.namespace}/${f.name ?? f.target.name}`;
        lower(f.reconcileKey, f.verb === 'Create' ? [target] : [], f.verb === 'Delete' ? [target] : []);
      }
    },
    pending: (key) => {
      const r = records.get(key);
      return r === undefined ? undefined : { add: r.createKeys.length, del: r.deleteKeys.length };
    },
  };
}

/** deliver feeds pod watch events through onPodEvent (of `kind`, the RC's by default) into the expectations, as the consumer would. */
export function deliver(
  c: SetCluster,
  exp: ExpectationsModel,
  events: readonly PodWatchEvent[],
  kind: ReplicaSetKind = REPLICATION_CONTROLLERS,
): string[] {
  const enqueued: string[] = [];
  for (const e of events) {
    const effect = onPodEvent(kind, e.type, e.object, e.type === 'Deleted' ? undefined : e.old, listers(c, kind).sets);
    exp.observe(effect.observed);
    enqueued.push(...effect.enqueue);
  }
  return enqueued;
}
