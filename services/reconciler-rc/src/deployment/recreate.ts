import type { ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import type { Lister } from '@kcm-bus/runtime/controller/index.ts';
import { CONTROLLER_UID_INDEX } from '@kcm-bus/runtime/store/index.ts';
import { getAllReplicaSetsAndSyncRevision } from './new-replica-set.ts';
import { deploymentComplete } from './progress.ts';
import { filterActiveReplicaSets, statusCount } from './replica-sets.ts';
import { syncRolloutStatus } from './rollout-status.ts';
import { scaleReplicaSet } from './scale.ts';
import { replicasOf } from './spec.ts';
import type { Requeue, SyncContext } from './sync-context.ts';
import { cleanupDeployment } from './sync.ts';

/**
 * rolloutRecreate mirrors recreate.go rolloutRecreate: scale every old ReplicaSet to zero, wait until none of their
 * pods runs, then create the new ReplicaSet (only now, so that no new pod runs beside an old one) at full size, and
 * clean up once complete; the status is written in every case.
 */
export function rolloutRecreate(s: SyncContext): Requeue {
  const podMap = getPodMapForDeployment(s.pods, s.view.replicaSets());
  const first = getAllReplicaSetsAndSyncRevision(s, false);
  const allRSs = [...first.oldRSs, first.newRS];
  if (scaleDownOldReplicaSetsForRecreate(s, filterActiveReplicaSets(first.oldRSs)))
    return syncRolloutStatus(s, allRSs, first.newRS);
  if (oldPodsRunning(first.newRS, first.oldRSs, podMap)) return syncRolloutStatus(s, allRSs, first.newRS);
  const { newRS, oldRSs } =
    first.newRS === undefined ? getAllReplicaSetsAndSyncRevision(s, true) : { ...first, newRS: first.newRS };
  scaleReplicaSet(s, newRS, replicasOf(s.view.deployment), false);
  const d = s.view.deployment;
  if (deploymentComplete(d, d.status ?? {})) cleanupDeployment(s, oldRSs);
  return syncRolloutStatus(s, [...oldRSs, newRS], newRS);
}

/** scaleDownOldReplicaSetsForRecreate mirrors its namesake: every old ReplicaSet with replicas to zero; true when any was. */
export function scaleDownOldReplicaSetsForRecreate(s: SyncContext, oldRSs: readonly ReplicaSet[]): boolean {
  let scaled = false;
  for (const rs of oldRSs) if (replicasOf(rs) !== 0 && scaleReplicaSet(s, rs, 0, false).scaled) scaled = true;
  return scaled;
}

/**
 * oldPodsRunning mirrors recreate.go oldPodsRunning: an old ReplicaSet reports pods, or a pod of a ReplicaSet other
 * than the new one is not Failed or Succeeded (a Pending or Unknown pod may run).
 */
export function oldPodsRunning(
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
  podMap: ReadonlyMap<string, readonly Pod[]>,
): boolean {
  if (statusCount(oldRSs, 'replicas') > 0) return true;
  const terminal = (p: Pod): boolean => p.status?.phase === 'Failed' || p.status?.phase === 'Succeeded';
  return [...podMap].some(([uid, pods]) => uid !== newRS?.metadata.uid && pods.some((p) => !terminal(p)));
}

/**
 * getPodMapForDeployment mirrors deployment_controller.go getPodMapForDeployment: each ReplicaSet's pods (those
 * whose controller reference names it: FilterPodsByOwner without orphans), by the ReplicaSet's UID.
 */
export function getPodMapForDeployment(pods: Lister<Pod>, rsList: readonly ReplicaSet[]): Map<string, readonly Pod[]> {
  return new Map(rsList.map((rs) => [rs.metadata.uid, pods.byIndex(CONTROLLER_UID_INDEX, rs.metadata.uid)]));
}
