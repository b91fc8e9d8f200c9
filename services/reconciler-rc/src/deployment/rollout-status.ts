import type { Deployment, DeploymentCondition, DeploymentStatus, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { timeMs } from '@kcm-bus/k8s/meta-v1.ts';
import { DEFAULT_BASE_DELAY_MS } from '@kcm-bus/runtime/workqueue/index.ts';
import {
  getDeploymentCondition,
  newDeploymentCondition,
  PROGRESSING,
  REASONS,
  removeDeploymentCondition,
  REPLICA_FAILURE,
  replicaSetToDeploymentCondition,
  setDeploymentCondition,
  withTransition,
} from './conditions.ts';
import { deploymentComplete, deploymentProgressing, deploymentTimedOut, GO_ZERO_TIME_MS } from './progress.ts';
import { hasProgressDeadline, progressDeadlineSecondsOf } from './spec.ts';
import { calculateStatus, statusEqual } from './status.ts';
import type { Requeue, SyncContext } from './sync-context.ts';

/**
 * syncRolloutStatus mirrors progress.go syncRolloutStatus: the calculated status, its Progressing condition updated
 * when the Deployment has a deadline and the rollout has not completed (or removed without a deadline), its
 * ReplicaFailure condition promoted from the ReplicaSets; written when it changed, else the Deployment is looked at
 * again when its deadline would pass (requeueStuckDeployment).
 */
export function syncRolloutStatus(
  s: SyncContext,
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
): Requeue {
  const d = s.view.deployment;
  let status = calculateStatus(allRSs, newRS, d, s.now);
  if (!hasProgressDeadline(d)) status = removeDeploymentCondition(status, PROGRESSING);
  const current = getDeploymentCondition(d.status ?? {}, PROGRESSING);
  const complete =
    (status.replicas ?? 0) === (status.updatedReplicas ?? 0) && current?.reason === REASONS.NewRSAvailableReason;
  if (hasProgressDeadline(d) && !complete) status = progressed(d, status, newRS, current, s.now);
  const failure = getReplicaFailures(allRSs, newRS);
  status =
    failure === undefined
      ? removeDeploymentCondition(status, REPLICA_FAILURE)
      : setDeploymentCondition(status, failure);
  if (statusEqual(d.status, status)) return requeueStuckDeployment(d, status, s.now);
  s.view.updateStatus({ ...d, status });
  return undefined;
}

/**
 * progressed is syncRolloutStatus's estimate of progress: NewReplicaSetAvailable once complete; ReplicaSetUpdated
 * on any progress (replacing the condition, its lastTransitionTime kept while it stays True); past the deadline,
 * ProgressDeadlineExceeded.
 */
function progressed(
  d: Deployment,
  status: DeploymentStatus,
  newRS: ReplicaSet | undefined,
  current: DeploymentCondition | undefined,
  now: Date,
): DeploymentStatus {
  const subject =
    newRS === undefined
      ? `Deployment ${JSON.stringify(d.metadata.name)}`
      : `ReplicaSet ${JSON.stringify(newRS.metadata.name)}`;
  if (deploymentComplete(d, status)) {
    const message = `${subject} has successfully progressed.`;
    return setDeploymentCondition(
      status,
      newDeploymentCondition(PROGRESSING, 'True', REASONS.NewRSAvailableReason, message, now),
    );
  }
  if (deploymentProgressing(d, status)) {
    const cond = newDeploymentCondition(
      PROGRESSING,
      'True',
      REASONS.ReplicaSetUpdatedReason,
      `${subject} is progressing.`,
      now,
    );
    if (current === undefined) return setDeploymentCondition(status, cond);
    const kept = current.status === 'True' ? withTransition(cond, current.lastTransitionTime) : cond;
    return setDeploymentCondition(removeDeploymentCondition(status, PROGRESSING), kept);
  }
  if (deploymentTimedOut(d, status, now)) {
    const message = `${subject} has timed out progressing.`;
    return setDeploymentCondition(
      status,
      newDeploymentCondition(PROGRESSING, 'False', REASONS.TimedOutReason, message, now),
    );
  }
  return status;
}

/**
 * getReplicaFailures mirrors progress.go getReplicaFailures (of which syncRolloutStatus uses the first): the new
 * ReplicaSet's ReplicaFailure condition, else the first among all of them, as a Deployment condition.
 */
export function getReplicaFailures(
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
): DeploymentCondition | undefined {
  const failureOf = (rs: ReplicaSet | undefined): DeploymentCondition[] =>
    (rs?.status?.conditions ?? []).filter((c) => c.type === REPLICA_FAILURE).map(replicaSetToDeploymentCondition);
  return failureOf(newRS)[0] ?? allRSs.flatMap(failureOf)[0];
}

/**
 * requeueStuckDeployment mirrors progress.go requeueStuckDeployment: a Deployment with a deadline, a Progressing
 * condition, not complete and not timed out yet is looked at again when its deadline passes (lastUpdateTime +
 * progressDeadlineSeconds, plus upstream's second against skew), or right away (its rate-limited add of a key whose
 * backoff the successful sync then forgets: the base delay) when less than a second is left.
 */
export function requeueStuckDeployment(d: Deployment, status: DeploymentStatus, now: Date): Requeue {
  const current = getDeploymentCondition(d.status ?? {}, PROGRESSING);
  if (!hasProgressDeadline(d) || current === undefined) return undefined;
  if (deploymentComplete(d, status) || current.reason === REASONS.TimedOutReason) return undefined;
  const from = timeMs(current.lastUpdateTime) ?? GO_ZERO_TIME_MS;
  const after = from + progressDeadlineSecondsOf(d) * 1000 - now.getTime();
  return after < 1000 ? DEFAULT_BASE_DELAY_MS : after + 1000;
}
