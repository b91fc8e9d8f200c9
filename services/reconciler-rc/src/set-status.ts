import { getCondition, removeCondition, setCondition } from '@kcm-bus/k8s/conditions.ts';
import type { ReplicaSetStatus } from '@kcm-bus/k8s/apps-v1.ts';
import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import { jsonEqual } from '@kcm-bus/k8s/json-equal.ts';
import { supersetMatcher } from '@kcm-bus/k8s/labels.ts';
import { rfc3339, timeMs } from '@kcm-bus/k8s/meta-v1.ts';
import { isPodAvailable, isPodReady, podReadyCondition } from '@kcm-bus/k8s/pod-util.ts';
import type { ManageError } from './manage-replicas.ts';
import type { ReplicaSetLike } from './replica-set-kind.ts';

/** REPLICA_FAILURE is apps.ReplicaSetReplicaFailure (v1.ReplicationControllerReplicaFailure), the one condition this controller manages. */
export const REPLICA_FAILURE = 'ReplicaFailure';

/**
 * calculateStatus mirrors replica_set_utils.go calculateStatus: counts of the claimed active pods (fully labeled =
 * carrying every template label, ready, available at `now`), terminatingReplicas as the count of the claimed
 * terminating pods when the kind counts them (`terminating` undefined: absent, as an RC's), plus the ReplicaFailure
 * condition: added on a manage error when absent, removed when the error has cleared.
 */
export function calculateStatus(
  set: ReplicaSetLike,
  pods: readonly Pod[],
  terminating: readonly Pod[] | undefined,
  manageErr: ManageError | undefined,
  now: Date,
): ReplicaSetStatus {
  const { terminatingReplicas: _old, ...old } = set.status ?? { replicas: 0 };
  let status: ReplicaSetStatus = {
    ...old,
    replicas: pods.length,
    ...countPods(set, pods, now),
    ...(terminating === undefined ? {} : { terminatingReplicas: terminating.length }),
  };
  const failure = getCondition(old, REPLICA_FAILURE);
  if (manageErr !== undefined && failure === undefined) {
    const cond = {
      type: REPLICA_FAILURE,
      status: 'True' as const,
      lastTransitionTime: rfc3339(now),
      reason: manageErr.reason,
      message: manageErr.message,
    };
    status = setCondition(status, cond);
  } else if (manageErr === undefined && failure !== undefined) {
    status = removeCondition(status, REPLICA_FAILURE);
  }
  return status;
}

function countPods(
  set: ReplicaSetLike,
  pods: readonly Pod[],
  now: Date,
): Pick<ReplicaSetStatus, 'fullyLabeledReplicas' | 'readyReplicas' | 'availableReplicas'> {
  const minReadySeconds = set.spec.minReadySeconds ?? 0;
  const fullyLabeled = supersetMatcher(set.spec.template?.metadata?.labels);
  let [fullyLabeledReplicas, readyReplicas, availableReplicas] = [0, 0, 0];
  for (const pod of pods) {
    if (fullyLabeled(pod.metadata.labels)) fullyLabeledReplicas++;
    if (!isPodReady(pod)) continue;
    readyReplicas++;
    if (isPodAvailable(pod, minReadySeconds, now)) availableReplicas++;
  }
  return { fullyLabeledReplicas, readyReplicas, availableReplicas };
}

/**
 * statusToWrite mirrors updateReplicaSetStatus's no-op test: nothing to write when the counts (terminatingReplicas
 * compared as pointers: absent is not 0), the observed generation and the conditions are as stored; else the status
 * with observedGeneration set to the set's generation.
 */
export function statusToWrite(set: ReplicaSetLike, status: ReplicaSetStatus): ReplicaSetStatus | undefined {
  const old = set.status ?? { replicas: 0 };
  const counts = ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'] as const;
  const same =
    counts.every((f) => (old[f] ?? 0) === (status[f] ?? 0)) &&
    (old.terminatingReplicas ?? undefined) === (status.terminatingReplicas ?? undefined) &&
    (set.metadata.generation ?? 0) === (old.observedGeneration ?? 0) &&
    jsonEqual(old.conditions ?? [], status.conditions ?? []);
  return same ? undefined : { ...status, observedGeneration: set.metadata.generation ?? 0 };
}

/**
 * nextAvailabilityCheckMs mirrors controller.FindMinNextPodAvailabilityCheck: how long until the first ready but
 * not yet available pod becomes available at `now`; undefined when none will (no minReadySeconds, or no
 * lastTransitionTime to count from).
 */
export function nextAvailabilityCheckMs(pods: readonly Pod[], minReadySeconds: number, now: Date): number | undefined {
  if (minReadySeconds <= 0) return undefined;
  const waits = pods.filter(isPodReady).flatMap((p) => {
    const since = timeMs(podReadyCondition(p)?.lastTransitionTime);
    const wait = since === undefined ? 0 : since + minReadySeconds * 1000 - now.getTime();
    return wait > 0 ? [wait] : [];
  });
  return waits.length === 0 ? undefined : Math.min(...waits);
}
