import type { Deployment, DeploymentStatus } from '@kcm-bus/k8s/apps-v1.ts';
import { timeMs } from '@kcm-bus/k8s/meta-v1.ts';
import { getDeploymentCondition, PROGRESSING, REASONS } from './conditions.ts';
import { hasProgressDeadline, progressDeadlineSecondsOf, replicasOf } from './spec.ts';

/**
 * deploymentComplete mirrors deploymentutil.DeploymentComplete: every desired replica updated and available, no
 * other pod left, and the status observed the Deployment's generation.
 */
export function deploymentComplete(d: Deployment, status: DeploymentStatus): boolean {
  const replicas = replicasOf(d);
  return (
    (status.updatedReplicas ?? 0) === replicas &&
    (status.replicas ?? 0) === replicas &&
    (status.availableReplicas ?? 0) === replicas &&
    (status.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
  );
}

/**
 * deploymentProgressing mirrors deploymentutil.DeploymentProgressing: compared with the Deployment's status, more pods
 * are updated, fewer old pods run, or more pods are ready or available.
 */
export function deploymentProgressing(d: Deployment, status: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const n = (s: DeploymentStatus, f: 'replicas' | 'updatedReplicas' | 'readyReplicas' | 'availableReplicas'): number =>
    s[f] ?? 0;
  const oldOld = n(old, 'replicas') - n(old, 'updatedReplicas');
  const newOld = n(status, 'replicas') - n(status, 'updatedReplicas');
  return (
    n(status, 'updatedReplicas') > n(old, 'updatedReplicas') ||
    newOld < oldOld ||
    n(status, 'readyReplicas') > n(old, 'readyReplicas') ||
    n(status, 'availableReplicas') > n(old, 'availableReplicas')
  );
}

/**
 * deploymentTimedOut mirrors deploymentutil.DeploymentTimedOut: with a deadline and a Progressing condition that is
 * not NewReplicaSetAvailable, the rollout timed out when the condition says so or when its lastUpdateTime plus
 * progressDeadlineSeconds is before now.
 */
export function deploymentTimedOut(d: Deployment, status: DeploymentStatus, now: Date): boolean {
  if (!hasProgressDeadline(d)) return false;
  const cond = getDeploymentCondition(status, PROGRESSING);
  if (cond === undefined || cond.reason === REASONS.NewRSAvailableReason) return false;
  if (cond.reason === REASONS.TimedOutReason) return true;
  const from = timeMs(cond.lastUpdateTime) ?? GO_ZERO_TIME_MS;
  return from + progressDeadlineSecondsOf(d) * 1000 < now.getTime();
}

/** GO_ZERO_TIME_MS is Go's zero time (0001-01-01T00:00:00Z) in epoch milliseconds: an absent metav1.Time. */
export const GO_ZERO_TIME_MS = -62135596800000;
