import type { DeploymentCondition, DeploymentStatus, ReplicaSetCondition } from '@kcm-bus/k8s/apps-v1.ts';
import type { ConditionStatus } from '@kcm-bus/k8s/core-v1.ts';
import { rfc3339 } from '@kcm-bus/k8s/meta-v1.ts';

/** AVAILABLE is apps.DeploymentAvailable: the Deployment has its minimum availability. */
export const AVAILABLE = 'Available';

/** PROGRESSING is apps.DeploymentProgressing: a rollout progresses, completed, or missed its deadline. */
export const PROGRESSING = 'Progressing';

/** REPLICA_FAILURE is apps.DeploymentReplicaFailure, promoted from a ReplicaSet's ReplicaFailure condition. */
export const REPLICA_FAILURE = 'ReplicaFailure';

/** REASONS are deploymentutil's condition reasons, by upstream's constant names. */
export const REASONS = {
  ReplicaSetUpdatedReason: 'ReplicaSetUpdated',
  FailedRSCreateReason: 'ReplicaSetCreateError',
  NewReplicaSetReason: 'NewReplicaSetCreated',
  FoundNewRSReason: 'FoundNewReplicaSet',
  NewRSAvailableReason: 'NewReplicaSetAvailable',
  TimedOutReason: 'ProgressDeadlineExceeded',
  PausedDeployReason: 'DeploymentPaused',
  ResumedDeployReason: 'DeploymentResumed',
  MinimumReplicasAvailable: 'MinimumReplicasAvailable',
  MinimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

/** newDeploymentCondition mirrors deploymentutil.NewDeploymentCondition: both times are now (metav1.Now, whole seconds on the wire). */
export function newDeploymentCondition(
  type: string,
  status: ConditionStatus,
  reason: string,
  message: string,
  now: Date,
): DeploymentCondition {
  const time = rfc3339(now);
  return { type, status, lastUpdateTime: time, lastTransitionTime: time, reason, message };
}

/** getDeploymentCondition mirrors deploymentutil.GetDeploymentCondition. */
export function getDeploymentCondition(status: DeploymentStatus, type: string): DeploymentCondition | undefined {
  return status.conditions?.find((c) => c.type === type);
}

/**
 * setDeploymentCondition mirrors deploymentutil.SetDeploymentCondition: nothing changes when a condition of the type
 * has the same status and reason; otherwise it replaces it, appended last, keeping its lastTransitionTime when only
 * the reason changed.
 */
export function setDeploymentCondition(status: DeploymentStatus, cond: DeploymentCondition): DeploymentStatus {
  const current = getDeploymentCondition(status, cond.type);
  if (current !== undefined && current.status === cond.status && current.reason === cond.reason) return status;
  const kept =
    current !== undefined && current.status === cond.status ? withTransition(cond, current.lastTransitionTime) : cond;
  return withConditions(status, [...(status.conditions ?? []).filter((c) => c.type !== cond.type), kept]);
}

/** withTransition is the condition with this lastTransitionTime (absent when the old one had none). */
export function withTransition(cond: DeploymentCondition, time: string | undefined): DeploymentCondition {
  const { lastTransitionTime: _new, ...rest } = cond;
  return time === undefined ? rest : { ...rest, lastTransitionTime: time };
}

/** removeDeploymentCondition mirrors deploymentutil.RemoveDeploymentCondition. */
export function removeDeploymentCondition(status: DeploymentStatus, type: string): DeploymentStatus {
  return withConditions(
    status,
    (status.conditions ?? []).filter((c) => c.type !== type),
  );
}

/** withConditions sets the conditions, the field left out when there are none (a nil slice, omitempty). */
function withConditions(status: DeploymentStatus, conditions: readonly DeploymentCondition[]): DeploymentStatus {
  const { conditions: _old, ...rest } = status;
  return conditions.length === 0 ? rest : { ...rest, conditions };
}

/**
 * replicaSetToDeploymentCondition mirrors deploymentutil.ReplicaSetToDeploymentCondition: a ReplicaSet's condition
 * as the Deployment's, its transition time as both times.
 */
export function replicaSetToDeploymentCondition(c: ReplicaSetCondition): DeploymentCondition {
  const time =
    c.lastTransitionTime === undefined
      ? {}
      : { lastTransitionTime: c.lastTransitionTime, lastUpdateTime: c.lastTransitionTime };
  return {
    type: c.type,
    status: c.status,
    ...time,
    ...(c.reason === undefined ? {} : { reason: c.reason }),
    ...(c.message === undefined ? {} : { message: c.message }),
  };
}
