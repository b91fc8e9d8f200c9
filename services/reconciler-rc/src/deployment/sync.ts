import type { ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { isTerminating } from '@kcm-bus/k8s/meta-v1.ts';
import { getDesiredReplicasAnnotation } from './annotations.ts';
import { getDeploymentCondition, PROGRESSING, REASONS } from './conditions.ts';
import { getAllReplicaSetsAndSyncRevision, withCondition } from './new-replica-set.ts';
import { byRevision, filterActiveReplicaSets, sorted } from './replica-sets.ts';
import { getRollbackTo } from './rollback.ts';
import { scale } from './scale.ts';
import { hasProgressDeadline, hasRevisionHistoryLimit, replicasOf, revisionHistoryLimitOf } from './spec.ts';
import { calculateStatus, statusEqual } from './status.ts';
import type { Requeue, SyncContext } from './sync-context.ts';

/** syncStatusOnly mirrors sync.go syncStatusOnly (a Deployment being deleted): its revision and status, no scaling. */
export function syncStatusOnly(s: SyncContext): Requeue {
  const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(s, false);
  syncDeploymentStatus(s, [...oldRSs, newRS], newRS);
  return undefined;
}

/**
 * sync mirrors sync.go sync, for a scaling event or a paused Deployment: scale, clean up old ReplicaSets when paused
 * (and no rollback is asked for), and write the status.
 */
export function sync(s: SyncContext): Requeue {
  const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(s, false);
  scale(s, newRS, oldRSs);
  const d = s.view.deployment;
  if (d.spec.paused === true && getRollbackTo(d) === undefined) cleanupDeployment(s, oldRSs);
  syncDeploymentStatus(s, [...oldRSs, newRS], newRS);
  return undefined;
}

/**
 * checkPausedConditions mirrors sync.go checkPausedConditions: a Deployment with a deadline that is not timed out
 * gets Progressing=Unknown DeploymentPaused when paused and DeploymentResumed when resumed, so that the time spent
 * paused never counts against its deadline.
 */
export function checkPausedConditions(s: SyncContext): void {
  const d = s.view.deployment;
  if (!hasProgressDeadline(d)) return;
  const cond = getDeploymentCondition(d.status ?? {}, PROGRESSING);
  if (cond?.reason === REASONS.TimedOutReason) return;
  const pausedCondExists = cond?.reason === REASONS.PausedDeployReason;
  const paused = d.spec.paused === true;
  if (paused && !pausedCondExists)
    s.view.updateStatus(withCondition(d, 'Unknown', REASONS.PausedDeployReason, 'Deployment is paused', s.now));
  else if (!paused && pausedCondExists)
    s.view.updateStatus(withCondition(d, 'Unknown', REASONS.ResumedDeployReason, 'Deployment is resumed', s.now));
}

/**
 * isScalingEvent mirrors sync.go isScalingEvent: some active ReplicaSet was sized for other replicas than the
 * Deployment's (its desired-replicas annotation). Syncs the revision on the way, as upstream's does.
 */
export function isScalingEvent(s: SyncContext): boolean {
  const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(s, false);
  const replicas = replicasOf(s.view.deployment);
  return filterActiveReplicaSets([...oldRSs, newRS]).some((rs) => {
    const desired = getDesiredReplicasAnnotation(rs);
    return desired !== undefined && desired !== replicas;
  });
}

/**
 * cleanupDeployment mirrors sync.go cleanupDeployment: past revisionHistoryLimit old ReplicaSets (not being deleted),
 * the lowest revisions go, each only when it has no replicas in spec and status and its status observed its spec.
 * It judges the ReplicaSets as the caller listed them, before this sync scaled any (upstream's stale copies too).
 */
export function cleanupDeployment(s: SyncContext, oldRSs: readonly ReplicaSet[]): void {
  const d = s.view.deployment;
  if (!hasRevisionHistoryLimit(d)) return;
  const cleanable = oldRSs.filter((rs) => !isTerminating(rs.metadata));
  const diff = cleanable.length - revisionHistoryLimitOf(d);
  if (diff <= 0) return;
  for (const rs of sorted(cleanable, byRevision).slice(0, diff)) {
    const observed = (rs.metadata.generation ?? 0) <= (rs.status?.observedGeneration ?? 0);
    if ((rs.status?.replicas ?? 0) !== 0 || replicasOf(rs) !== 0 || !observed) continue;
    s.view.deleteReplicaSet(rs);
  }
}

/** syncDeploymentStatus mirrors sync.go syncDeploymentStatus: the calculated status, written when it changed. */
function syncDeploymentStatus(
  s: SyncContext,
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
): void {
  const d = s.view.deployment;
  const status = calculateStatus(allRSs, newRS, d, s.now);
  if (!statusEqual(d.status, status)) s.view.updateStatus({ ...d, status });
}
