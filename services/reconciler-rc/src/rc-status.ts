import { getCondition, removeCondition, setCondition } from '@kcm-bus/k8s/conditions.ts';
import type { Pod, ReplicationController, ReplicationControllerStatus } from '@kcm-bus/k8s/core-v1.ts';
import { jsonEqual } from '@kcm-bus/k8s/json-equal.ts';
import { supersetMatcher } from '@kcm-bus/k8s/labels.ts';
import { rfc3339, timeMs } from '@kcm-bus/k8s/meta-v1.ts';
import { isPodAvailable, isPodReady, podReadyCondition } from '@kcm-bus/k8s/pod-util.ts';
import type { ManageError } from './manage-replicas.ts';

/** REPLICA_FAILURE is v1.ReplicationControllerReplicaFailure, the one condition this controller manages. */
export const REPLICA_FAILURE = 'ReplicaFailure';

/**
 * calculateStatus mirrors replica_set_utils.go calculateStatus for an RC (no terminatingReplicas): counts of the
 * claimed active pods (fully labeled = carrying every template label, ready, available at `now`), plus the
 * ReplicaFailure condition: added on a manage error when absent, removed when the error has cleared.
 */
export function calculateStatus(rc: ReplicationController, pods: readonly Pod[], manageErr: ManageError | undefined, now: Date): ReplicationControllerStatus {
  const old = rc.status ?? { replicas: 0 };
  let status: ReplicationControllerStatus = { ...old, replicas: pods.length, ...countPods(rc, pods, now) };
  const failure = getCondition(old, REPLICA_FAILURE);
  if (manageErr !== undefined && failure === undefined) {
    const cond = { type: REPLICA_FAILURE, status: 'True' as const, lastTransitionTime: rfc3339(now), reason: manageErr.reason, message: manageErr.message };
    status = setCondition(status, cond);
  } else if (manageErr === undefined && failure !== undefined) {
    status = removeCondition(status, REPLICA_FAILURE);
  }
  return status;
}

/** countPods is calculateStatus's one pass over the pods: fully labeled, ready, and of those available at `now`. */
function countPods(rc: ReplicationController, pods: readonly Pod[], now: Date): Pick<ReplicationControllerStatus, 'fullyLabeledReplicas' | 'readyReplicas' | 'availableReplicas'> {
  const minReadySeconds = rc.spec.minReadySeconds ?? 0;
  const fullyLabeled = supersetMatcher(rc.spec.template?.metadata?.labels);
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
 * statusToWrite mirrors updateReplicaSetStatus's steady-state check: undefined when the counts, the conditions and
 * observedGeneration (= metadata.generation) already hold, else the status to PUT, stamped with the generation.
 */
export function statusToWrite(rc: ReplicationController, status: ReplicationControllerStatus): ReplicationControllerStatus | undefined {
  const old = rc.status ?? { replicas: 0 };
  const counts = ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'] as const;
  const same = counts.every((f) => (old[f] ?? 0) === (status[f] ?? 0))
    && (rc.metadata.generation ?? 0) === (old.observedGeneration ?? 0)
    && jsonEqual(old.conditions ?? [], status.conditions ?? []);
  return same ? undefined : { ...status, observedGeneration: rc.metadata.generation ?? 0 };
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
