import type { ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { maxUnavailable } from './fenceposts.ts';
import { getAllReplicaSetsAndSyncRevision } from './new-replica-set.ts';
import { deploymentComplete } from './progress.ts';
import {
  byCreationTimestamp,
  filterActiveReplicaSets,
  newRSNewReplicas,
  replicaCount,
  sorted,
  statusCount,
} from './replica-sets.ts';
import { syncRolloutStatus } from './rollout-status.ts';
import { scaleReplicaSet } from './scale.ts';
import { replicasOf } from './spec.ts';
import { type Requeue, type SyncContext, SyncError } from './sync-context.ts';
import { cleanupDeployment } from './sync.ts';

/**
 * rolloutRolling mirrors rolling.go rolloutRolling: with the new ReplicaSet created if missing, scale it up if it
 * may, else scale old ones down if they may, else clean up old ReplicaSets once the rollout is complete; the status
 * is written in every case.
 */
export function rolloutRolling(s: SyncContext): Requeue {
  const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(s, true);
  const allRSs = [...oldRSs, newRS];
  if (reconcileNewReplicaSet(s, allRSs, newRS)) return syncRolloutStatus(s, allRSs, newRS);
  if (reconcileOldReplicaSets(s, allRSs, filterActiveReplicaSets(oldRSs), newRS))
    return syncRolloutStatus(s, allRSs, newRS);
  const d = s.view.deployment;
  if (deploymentComplete(d, d.status ?? {})) cleanupDeployment(s, oldRSs);
  return syncRolloutStatus(s, allRSs, newRS);
}

/**
 * reconcileNewReplicaSet mirrors rolling.go reconcileNewReplicaSet: a new ReplicaSet above the Deployment's replicas
 * scales down to them, one below scales up as far as NewRSNewReplicas allows. True when it scaled.
 */
export function reconcileNewReplicaSet(s: SyncContext, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): boolean {
  const replicas = replicasOf(s.view.deployment);
  if (replicasOf(newRS) === replicas) return false;
  if (replicasOf(newRS) > replicas) return scaleReplicaSet(s, newRS, replicas, false).scaled;
  const target = newRSNewReplicas(s.view.deployment, allRSs, newRS);
  if ('error' in target) throw new SyncError(target.error);
  return scaleReplicaSet(s, newRS, target.value, false).scaled;
}

/**
 * reconcileOldReplicaSets mirrors rolling.go reconcileOldReplicaSets: old ReplicaSets may lose as many pods as leave
 * minAvailable, counting the new ReplicaSet's unavailable pods as lost already; their unhealthy pods go first, then
 * available ones as far as availability allows. True when any was scaled down.
 */
export function reconcileOldReplicaSets(
  s: SyncContext,
  allRSs: readonly ReplicaSet[],
  oldRSs: readonly ReplicaSet[],
  newRS: ReplicaSet,
): boolean {
  if (replicaCount(oldRSs) === 0) return false;
  const d = s.view.deployment;
  const minAvailable = replicasOf(d) - maxUnavailable(d);
  const newRSUnavailablePodCount = replicasOf(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = replicaCount(allRSs) - minAvailable - newRSUnavailablePodCount;
  if (maxScaledDown <= 0) return false;
  const cleaned = cleanupUnhealthyReplicas(s, oldRSs, maxScaledDown);
  if (cleaned === undefined) return false;
  const scaledDown = scaleDownOldReplicaSetsForRollingUpdate(s, [...cleaned.oldRSs, newRS], cleaned.oldRSs);
  return cleaned.count + scaledDown > 0;
}

/**
 * cleanupUnhealthyReplicas mirrors rolling.go cleanupUnhealthyReplicas: oldest first, each old ReplicaSet loses its
 * unavailable pods, at most maxCleanupCount in all. Returns the ReplicaSets as scaled and the count; undefined where
 * upstream errs (a ReplicaSet reporting more available pods than its size), which ends the scale-down quietly.
 */
export function cleanupUnhealthyReplicas(
  s: SyncContext,
  oldRSs: readonly ReplicaSet[],
  maxCleanupCount: number,
): { readonly oldRSs: ReplicaSet[]; readonly count: number } | undefined {
  const list = sorted(oldRSs, byCreationTimestamp);
  let count = 0;
  for (const [i, rs] of list.entries()) {
    if (count >= maxCleanupCount) break;
    const [replicas, available] = [replicasOf(rs), rs.status?.availableReplicas ?? 0];
    if (replicas === 0 || replicas === available) continue;
    const scaledDownCount = Math.min(maxCleanupCount - count, replicas - available);
    if (scaledDownCount < 0) return undefined;
    list[i] = scaleReplicaSet(s, rs, replicas - scaledDownCount, false).rs;
    count += scaledDownCount;
  }
  return { oldRSs: list, count };
}

/**
 * scaleDownOldReplicaSetsForRollingUpdate mirrors its namesake: the available pods above minAvailable are taken
 * from the old ReplicaSets, oldest first. Returns how many.
 */
export function scaleDownOldReplicaSetsForRollingUpdate(
  s: SyncContext,
  allRSs: readonly ReplicaSet[],
  oldRSs: readonly ReplicaSet[],
): number {
  const d = s.view.deployment;
  const minAvailable = replicasOf(d) - maxUnavailable(d);
  const available = statusCount(allRSs, 'availableReplicas');
  if (available <= minAvailable) return 0;
  const totalScaleDownCount = available - minAvailable;
  let total = 0;
  for (const rs of sorted(oldRSs, byCreationTimestamp)) {
    if (total >= totalScaleDownCount) break;
    if (replicasOf(rs) === 0) continue;
    const scaleDownCount = Math.min(replicasOf(rs), totalScaleDownCount - total);
    scaleReplicaSet(s, rs, replicasOf(rs) - scaleDownCount, false);
    total += scaleDownCount;
  }
  return total;
}
