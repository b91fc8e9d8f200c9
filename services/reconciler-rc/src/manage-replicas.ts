import type { Pod, ReplicationController } from '@kcm-bus/k8s/core-v1.ts';
import { createDraft, deleteDraft, type MutationDraft, type MutationLog, recordEventDraft, withOutcomeEvent } from '@kcm-bus/k8s/mutation-drafts.ts';
import { podKey } from '@kcm-bus/k8s/pod-util.ts';
import { generatedName } from '@kcm-bus/runtime/mutation/mutation-id.ts';
import type { EventType } from '@kcm-bus/runtime/mutation/mutation.ts';
import type { ExpectationChange, Lister } from '@kcm-bus/runtime/reconcile/reconciler.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import { getPodsToDelete } from './active-pods-with-ranks.ts';
import type { FailureSummary } from './failures.ts';
import { getPodFromTemplate, getPodsPrefix, templateHasLabels } from './pod-from-template.ts';
import { getIndirectlyRelatedPods } from './rc-lookup.ts';
import { EVENT_SOURCE, PODS, RC_API_VERSION, RC_KIND } from './replication-controller.ts';

/** ManageError is manageReplicas's error as calculateStatus turns it into the ReplicaFailure condition. */
export type ManageError = { readonly reason: 'FailedCreate' | 'FailedDelete'; readonly message: string };

/** ManageContext is what manageReplicas reads besides the RC and its claimed pods. */
export type ManageContext = {
  readonly rcs: Lister<ReplicationController>;
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
export function reportFailures(rc: ReplicationController, failures: FailureSummary, log: MutationLog): ManageError | undefined {
  for (const message of failures.create) log.push(rcEvent(rc, 'Warning', 'FailedCreate', `Error creating: ${message}`));
  for (const message of failures.delete) log.push(rcEvent(rc, 'Warning', 'FailedDelete', `Error deleting: ${message}`));
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
export function manageReplicas(rc: ReplicationController, claimed: readonly Pod[], ctx: ManageContext): ManageResult {
  const diff = claimed.length - (rc.spec.replicas ?? 1);
  if (diff < 0) return createPods(rc, Math.min(-diff, ctx.burstReplicas), ctx.log);
  if (diff > 0) return deletePods(rc, claimed, Math.min(diff, ctx.burstReplicas), ctx);
  return {};
}

/**
 * createPods is manageReplicas's slowStartBatch over CreatePods: the `count` creates go out as one slow-start run
 * (the run's id is its first create's), which the writer applies in batches of 1, 2, 4 … and stops at the first
 * batch with a failure, as upstream does within one sync; the skipped ones come back as results that lower the
 * expectations.
 */
function createPods(rc: ReplicationController, count: number, log: MutationLog): ManageResult {
  if (!templateHasLabels(rc)) return { error: { reason: 'FailedCreate', message: 'unable to create pods, no labels' } };
  const prefix = getPodsPrefix(rc.metadata.name);
  const objectKeys: string[] = [];
  const run = log.nextId();
  for (let i = 0; i < count; i++) {
    const name = generatedName(prefix, log.nextId());
    const created = rcEvent(rc, 'Normal', 'SuccessfulCreate', `Created pod: ${name}`);
    const draft = createDraft(PODS, rc.metadata.namespace, getPodFromTemplate(rc));
    log.push({ ...withOutcomeEvent(draft, created), slowStart: { run, index: i, size: count } });
    objectKeys.push(objectKey({ namespace: rc.metadata.namespace, name }));
  }
  return { expectations: { type: 'ExpectCreations', objectKeys } };
}

function deletePods(rc: ReplicationController, claimed: readonly Pod[], count: number, ctx: ManageContext): ManageResult {
  const related = getIndirectlyRelatedPods(rc, ctx.rcs, ctx.pods);
  const victims = getPodsToDelete(claimed, related, count, ctx.now);
  for (const pod of victims) {
    ctx.log.push(withOutcomeEvent(deleteDraft(PODS, pod.metadata), rcEvent(rc, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`)));
  }
  return { expectations: { type: 'ExpectDeletions', objectKeys: getPodKeys(victims) } };
}

/** getPodKeys mirrors replica_set.go getPodKeys: the `namespace/name` keys ExpectDeletions tracks. */
export function getPodKeys(pods: readonly Pod[]): readonly string[] {
  return pods.map(podKey);
}

/** rcEvent is RealPodControl's Recorder.Eventf(rc, …): an event on the RC from replication-controller. */
function rcEvent(rc: ReplicationController, type: EventType, reason: string, message: string): MutationDraft {
  return recordEventDraft(EVENT_SOURCE, { apiVersion: RC_API_VERSION, kind: RC_KIND, metadata: rc.metadata }, type, reason, message);
}
