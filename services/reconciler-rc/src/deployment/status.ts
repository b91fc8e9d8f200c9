import type { Deployment, DeploymentCondition, DeploymentStatus, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { jsonEqual } from '@kcm-bus/k8s/json-equal.ts';
import { AVAILABLE, newDeploymentCondition, REASONS, setDeploymentCondition } from './conditions.ts';
import { maxUnavailable } from './fenceposts.ts';
import { replicaCount, statusCount, terminatingReplicaCount } from './replica-sets.ts';
import { replicasOf } from './spec.ts';

/**
 * calculateStatus mirrors sync.go calculateStatus: the counts summed over the ReplicaSets (updatedReplicas: the new
 * one's), unavailableReplicas never below 0, terminatingReplicas (the DeploymentReplicaSetTerminatingReplicas gate is
 * beta and on in v1.37.2), collisionCount and conditions kept, and the Available condition set for whether
 * minAvailable (replicas - maxUnavailable) pods are available.
 */
export function calculateStatus(
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
  now: Date,
): DeploymentStatus {
  const availableReplicas = statusCount(allRSs, 'availableReplicas');
  const terminatingReplicas = terminatingReplicaCount(allRSs);
  const collisionCount = d.status?.collisionCount;
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation ?? 0,
    replicas: statusCount(allRSs, 'replicas'),
    updatedReplicas: statusCount([newRS], 'replicas'),
    readyReplicas: statusCount(allRSs, 'readyReplicas'),
    availableReplicas,
    unavailableReplicas: Math.max(0, replicaCount(allRSs) - availableReplicas),
    ...(terminatingReplicas === null ? {} : { terminatingReplicas }),
    ...(d.status?.conditions === undefined ? {} : { conditions: d.status.conditions }),
    ...(collisionCount == null ? {} : { collisionCount }),
  };
  return setDeploymentCondition(status, availableCondition(d, availableReplicas, now));
}

/** availableCondition is calculateStatus's Available condition: whether minAvailable (replicas - maxUnavailable) pods are. */
function availableCondition(d: Deployment, availableReplicas: number, now: Date): DeploymentCondition {
  return availableReplicas >= replicasOf(d) - maxUnavailable(d)
    ? newDeploymentCondition(AVAILABLE, 'True', REASONS.MinimumReplicasAvailable, MIN_AVAILABLE, now)
    : newDeploymentCondition(AVAILABLE, 'False', REASONS.MinimumReplicasUnavailable, MIN_UNAVAILABLE, now);
}

const MIN_AVAILABLE = 'Deployment has minimum availability.';
const MIN_UNAVAILABLE = 'Deployment does not have minimum availability.';

const COUNTS = [
  'observedGeneration',
  'replicas',
  'updatedReplicas',
  'readyReplicas',
  'availableReplicas',
  'unavailableReplicas',
] as const;

/**
 * statusEqual is reflect.DeepEqual on two DeploymentStatuses as the wire carries them: an absent count is 0, an
 * absent pointer (terminatingReplicas, collisionCount) is nil and differs from 0, absent conditions are none.
 */
export function statusEqual(a: DeploymentStatus | undefined, b: DeploymentStatus): boolean {
  const old = a ?? {};
  return (
    COUNTS.every((f) => (old[f] ?? 0) === (b[f] ?? 0)) &&
    (old.terminatingReplicas ?? null) === (b.terminatingReplicas ?? null) &&
    (old.collisionCount ?? null) === (b.collisionCount ?? null) &&
    jsonEqual(old.conditions ?? [], b.conditions ?? [])
  );
}
