import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { controllerOf } from '@kcm-bus/k8s/meta-v1.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import { newControllerRef } from '../claim-objects.ts';
import { MAX_REV_HISTORY_LENGTH_IN_CHARS, maxRevision, REVISION, setDeploymentRevision } from './annotations.ts';
import {
  getDeploymentCondition,
  newDeploymentCondition,
  PROGRESSING,
  REASONS,
  setDeploymentCondition,
} from './conditions.ts';
import { computeHash, equalIgnoreHash, generateReplicaSetName, POD_TEMPLATE_HASH } from './hash.ts';
import { DEPLOYMENT_KIND } from './kinds.ts';
import { setNewReplicaSetAnnotations } from './new-replica-set-annotations.ts';
import { findNewReplicaSet, findOldReplicaSets, newRSNewReplicas } from './replica-sets.ts';
import { hasProgressDeadline } from './spec.ts';
import { type SyncContext, SyncError } from './sync-context.ts';

/** NewAndOld are a Deployment's new ReplicaSet (none yet, maybe) and all its old ones. */
export type NewAndOld = { readonly newRS: ReplicaSet | undefined; readonly oldRSs: ReplicaSet[] };

/** WithNew are NewAndOld once the new ReplicaSet exists (asked to create it). */
export type WithNew = { readonly newRS: ReplicaSet; readonly oldRSs: ReplicaSet[] };

/**
 * getAllReplicaSetsAndSyncRevision mirrors sync.go's: the old ReplicaSets, and the new one with its revision synced
 * (created when missing and `create`), from the view's ReplicaSets.
 */
export function getAllReplicaSetsAndSyncRevision(s: SyncContext, create: true): WithNew;
export function getAllReplicaSetsAndSyncRevision(s: SyncContext, create: false): NewAndOld;
export function getAllReplicaSetsAndSyncRevision(s: SyncContext, create: boolean): NewAndOld {
  const rsList = s.view.replicaSets();
  const { allOld } = findOldReplicaSets(s.view.deployment, rsList);
  return { newRS: getNewReplicaSet(s, rsList, allOld, create), oldRSs: allOld };
}

/**
 * getNewReplicaSet mirrors sync.go getNewReplicaSet: the ReplicaSet whose template is the Deployment's gets the
 * Deployment's annotations, a revision above every old one and its minReadySeconds (an update that ends the step);
 * else the Deployment takes its revision (and a FoundNewReplicaSet condition when it has a deadline and no
 * Progressing condition yet). Without one, and asked to, it creates it.
 */
function getNewReplicaSet(
  s: SyncContext,
  rsList: readonly ReplicaSet[],
  oldRSs: readonly ReplicaSet[],
  create: boolean,
): ReplicaSet | undefined {
  const existing = findNewReplicaSet(s.view.deployment, rsList);
  const newRevision = maxRevision(oldRSs) + 1n;
  if (existing !== undefined) return syncExistingNewReplicaSet(s, existing, newRevision);
  return create ? createNewReplicaSet(s, oldRSs, newRevision) : undefined;
}

function syncExistingNewReplicaSet(s: SyncContext, existing: ReplicaSet, newRevision: bigint): ReplicaSet {
  const d = s.view.deployment;
  const annotated = setNewReplicaSetAnnotations(d, existing, newRevision, true, MAX_REV_HISTORY_LENGTH_IN_CHARS);
  const minReadySeconds = d.spec.minReadySeconds ?? 0;
  if (annotated.changed || (existing.spec.minReadySeconds ?? 0) !== minReadySeconds) {
    const rs = { ...annotated.object, spec: { ...annotated.object.spec, minReadySeconds } };
    s.view.updateReplicaSet(rs);
    return rs;
  }
  const revised = setDeploymentRevision(d, annotated.object.metadata.annotations?.[REVISION] ?? '');
  const found = hasProgressDeadline(d) && getDeploymentCondition(d.status ?? {}, PROGRESSING) === undefined;
  const message = `Found new replica set ${JSON.stringify(existing.metadata.name)}`;
  const next = found ? withCondition(revised.object, 'True', REASONS.FoundNewRSReason, message, s.now) : revised.object;
  if (revised.changed || found) s.view.updateStatus(next);
  return annotated.object;
}

/**
 * createNewReplicaSet is getNewReplicaSet's creation: the Deployment's template and selector with the
 * pod-template-hash label, named `<deployment>-<hash>`, owned by the Deployment, sized by NewRSNewReplicas and
 * annotated. A ReplicaSet of that name in the store (upstream learns of it from the Create's AlreadyExists) is the
 * new one when the Deployment owns it and its template is equal; else the hash collided: collisionCount goes up (a
 * status write) and the sync ends with the error, to create under another name in the next. Then the Deployment
 * takes the new revision, with a NewReplicaSetCreated condition when it has a deadline and the ReplicaSet is new.
 */
function createNewReplicaSet(s: SyncContext, oldRSs: readonly ReplicaSet[], newRevision: bigint): ReplicaSet {
  const d = s.view.deployment;
  const draft = newReplicaSetOf(d);
  const replicas = newRSNewReplicas(d, [...oldRSs, draft], draft);
  if ('error' in replicas) throw new SyncError(replicas.error);
  const sized = { ...draft, spec: { ...draft.spec, replicas: replicas.value } };
  const rs = setNewReplicaSetAnnotations(d, sized, newRevision, false, MAX_REV_HISTORY_LENGTH_IN_CHARS).object;
  const found = s.replicaSets.get(objectKey(rs.metadata));
  if (found !== undefined && !isNewReplicaSetOf(d, found)) collided(s, rs.metadata.name);
  if (found === undefined) {
    const scaledUp = `Scaled up replica set ${rs.metadata.name} from 0 to ${replicas.value}`;
    const event = replicas.value > 0 ? s.view.eventDraft('Normal', 'ScalingReplicaSet', scaledUp) : undefined;
    s.view.createReplicaSet(rs, event);
  }
  syncCreatedRevision(s, rs.metadata.name, newRevision, found === undefined);
  return found ?? rs;
}

/**
 * syncCreatedRevision is getNewReplicaSet's end after a create: the Deployment takes the new revision, and a
 * NewReplicaSetCreated condition when it has a deadline and the ReplicaSet was created (not found), written.
 */
function syncCreatedRevision(s: SyncContext, name: string, newRevision: bigint, created: boolean): void {
  const revised = setDeploymentRevision(s.view.deployment, String(newRevision));
  const condition = created && hasProgressDeadline(s.view.deployment);
  const message = `Created new replica set ${JSON.stringify(name)}`;
  const next = condition
    ? withCondition(revised.object, 'True', REASONS.NewReplicaSetReason, message, s.now)
    : revised.object;
  if (revised.changed || condition) s.view.updateStatus(next);
}

/** newReplicaSetOf is the ReplicaSet createNewReplicaSet starts from: no replicas or annotations yet. */
function newReplicaSetOf(d: Deployment): ReplicaSet {
  const hash = computeHash(d.spec.template, d.status?.collisionCount);
  const template = d.spec.template ?? {};
  const labels = { ...template.metadata?.labels, [POD_TEMPLATE_HASH]: hash };
  const selector = { ...d.spec.selector, matchLabels: { ...d.spec.selector?.matchLabels, [POD_TEMPLATE_HASH]: hash } };
  const { namespace } = d.metadata;
  return {
    metadata: {
      name: generateReplicaSetName(d.metadata.name, hash),
      ...(namespace === undefined ? {} : { namespace }),
      uid: '',
      ownerReferences: [newControllerRef(d, DEPLOYMENT_KIND)],
      labels,
    },
    spec: {
      replicas: 0,
      minReadySeconds: d.spec.minReadySeconds ?? 0,
      selector,
      template: { ...template, metadata: { ...template.metadata, labels } },
    },
  };
}

/** isNewReplicaSetOf: the Deployment controls the ReplicaSet and their templates are equal (the hash aside). */
function isNewReplicaSetOf(d: Deployment, rs: ReplicaSet): boolean {
  return controllerOf(rs.metadata)?.uid === d.metadata.uid && equalIgnoreHash(d.spec.template, rs.spec.template);
}

/** collided is the hash collision: collisionCount raised and written, and the AlreadyExists error returned. */
function collided(s: SyncContext, name: string): never {
  const d = s.view.deployment;
  const collisionCount = (d.status?.collisionCount ?? 0) + 1;
  s.view.updateStatus({ ...d, status: { ...d.status, collisionCount } });
  throw new SyncError(`replicasets.apps ${JSON.stringify(name)} already exists`);
}

/** withCondition is the Deployment with SetDeploymentCondition(Progressing, status, reason, message) applied. */
export function withCondition(
  d: Deployment,
  status: 'True' | 'False' | 'Unknown',
  reason: string,
  message: string,
  now: Date,
): Deployment {
  const cond = newDeploymentCondition(PROGRESSING, status, reason, message, now);
  return { ...d, status: setDeploymentCondition(d.status ?? {}, cond) };
}
