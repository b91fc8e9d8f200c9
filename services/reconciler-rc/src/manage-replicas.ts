import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import {
  createDraft,
  deleteDraft,
  type MutationDraft,
  type MutationLog,
  recordEventDraft,
  withOutcomeEvent,
} from '@kcm-bus/k8s/mutation-drafts.ts';
import { podKey } from '@kcm-bus/k8s/pod-util.ts';
import { generatedName, type EventType } from '@kcm-bus/runtime/mutation/index.ts';
import type { ExpectationChange, Lister } from '@kcm-bus/runtime/controller/index.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import { getPodsToDelete } from './active-pods-with-ranks.ts';
import type { FailureSummary } from './failures.ts';
import { getPodFromTemplate, getPodsPrefix, templateHasLabels } from './pod-from-template.ts';
import { PODS, type ReplicaSetKind, type ReplicaSetLike } from './replica-set-kind.ts';
import { getIndirectlyRelatedPods } from './set-lookup.ts';

/** ManageError is manageReplicas's error as calculateStatus turns it into the ReplicaFailure condition. */
export type ManageError = { readonly reason: 'FailedCreate' | 'FailedDelete'; readonly message: string };

/** ManageContext is what manageReplicas reads besides the set and its claimed pods: its kind, the sets and pods listers, burstReplicas, the clock, the log. */
export type ManageContext = {
  readonly kind: ReplicaSetKind;
  readonly sets: Lister<ReplicaSetLike>;
  readonly pods: Lister<Pod>;
  readonly burstReplicas: number;
  readonly now: Date;
  readonly log: MutationLog;
};

/** ManageResult is the expectation change to record before the creates or deletes, and the error, if any. */
export type ManageResult = { readonly expectations?: ExpectationChange; readonly error?: ManageError };

/**
 * reportFailures is the error half of manageReplicas, one round later: upstream's RealPodControl records a Warning
 * FailedCreate "Error creating: …" or FailedDelete "Error deleting: …" per failed call and manageReplicas returns
 * the first error; here the failed results arrive with the next reconcile, which records the same events and
 * returns that error (so no creates or deletes this round, and a rate-limited requeue).
 */
export function reportFailures(
  kind: ReplicaSetKind,
  set: ReplicaSetLike,
  failures: FailureSummary,
  log: MutationLog,
): ManageError | undefined {
  for (const message of failures.create)
    log.push(setEvent(kind, set, 'Warning', 'FailedCreate', `Error creating: ${message}`));
  for (const message of failures.delete)
    log.push(setEvent(kind, set, 'Warning', 'FailedDelete', `Error deleting: ${message}`));
  const [create] = failures.create;
  if (create !== undefined) return { reason: 'FailedCreate', message: create };
  const [del] = failures.delete;
  return del === undefined ? undefined : { reason: 'FailedDelete', message: `unable to delete pods: ${del}` };
}

/**
 * manageReplicas mirrors replica_set.go manageReplicas for one reconcile: too few pods → creates (one slow-start
 * run, see createPods) after ExpectCreations of the names the writer will give them; too many → deletes of the pods getPodsToDelete ranks first, after
 * ExpectDeletions of their keys; both capped at burstReplicas. Each write carries the event upstream emits after
 * the call succeeds, which the writer records only if the write is Applied (SuccessfulCreate names the pod the
 * writer will create: generatedName of the Create's id).
 */
export function manageReplicas(set: ReplicaSetLike, claimed: readonly Pod[], ctx: ManageContext): ManageResult {
  const diff = claimed.length - (set.spec.replicas ?? 1);
  if (diff < 0) return createPods(ctx.kind, set, Math.min(-diff, ctx.burstReplicas), ctx.log);
  if (diff > 0) return deletePods(set, claimed, Math.min(diff, ctx.burstReplicas), ctx);
  return {};
}

/**
 * createPods is manageReplicas's slowStartBatch over CreatePods: the `count` creates go out as one slow-start run
 * (the run's id is its first create's), which the writer applies in batches of 1, 2, 4 … and stops at the first
 * batch with a failure, as upstream does within one sync; the skipped ones come back as results that lower the
 * expectations.
 */
function createPods(kind: ReplicaSetKind, set: ReplicaSetLike, count: number, log: MutationLog): ManageResult {
  if (!templateHasLabels(set))
    return { error: { reason: 'FailedCreate', message: 'unable to create pods, no labels' } };
  const prefix = getPodsPrefix(set.metadata.name);
  const objectKeys: string[] = [];
  const run = log.nextId();
  for (let i = 0; i < count; i++) {
    const name = generatedName(prefix, log.nextId());
    const created = setEvent(kind, set, 'Normal', 'SuccessfulCreate', `Created pod: ${name}`);
    const draft = createDraft(PODS, set.metadata.namespace, getPodFromTemplate(set, kind.owner));
    log.push({ ...withOutcomeEvent(draft, created), slowStart: { run, index: i, size: count } });
    objectKeys.push(objectKey({ namespace: set.metadata.namespace, name }));
  }
  return { expectations: { type: 'ExpectCreations', objectKeys } };
}

function deletePods(set: ReplicaSetLike, claimed: readonly Pod[], count: number, ctx: ManageContext): ManageResult {
  const related = getIndirectlyRelatedPods(ctx.kind, set, ctx.sets, ctx.pods);
  const victims = getPodsToDelete(claimed, related, count, ctx.now);
  for (const pod of victims) {
    ctx.log.push(
      withOutcomeEvent(
        deleteDraft(PODS, pod.metadata),
        setEvent(ctx.kind, set, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`),
      ),
    );
  }
  return { expectations: { type: 'ExpectDeletions', objectKeys: getPodKeys(victims) } };
}

/** getPodKeys mirrors replica_set.go getPodKeys: the `namespace/name` keys ExpectDeletions tracks. */
export function getPodKeys(pods: readonly Pod[]): readonly string[] {
  return pods.map(podKey);
}

/** setEvent is RealPodControl's Recorder.Eventf(set, …): an event on the set from its kind's event source. */
function setEvent(
  kind: ReplicaSetKind,
  set: ReplicaSetLike,
  type: EventType,
  reason: string,
  message: string,
): MutationDraft {
  return recordEventDraft(kind.eventSource, { ...kind.owner, metadata: set.metadata }, type, reason, message);
}
