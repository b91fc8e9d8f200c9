import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { timeMs } from '@kcm-bus/k8s/meta-v1.ts';
import { DESIRED_REPLICAS, revision } from './annotations.ts';
import { getScaledValueFromIntOrPercent, type Scaled } from './fenceposts.ts';
import { equalIgnoreHash } from './hash.ts';
import { RECREATE, replicasOf, rollingUpdateOf, ROLLING_UPDATE, strategyTypeOf } from './spec.ts';

/** Order is a sort's comparison: negative when a comes first. */
type Order = (a: ReplicaSet, b: ReplicaSet) => number;

/**
 * byCreationTimestamp is controller.ReplicaSetsByCreationTimestamp: older first, the name breaking ties (an absent
 * timestamp is Go's zero time, the oldest).
 */
export const byCreationTimestamp: Order = (a, b) => {
  const [ta, tb] = [
    timeMs(a.metadata.creationTimestamp) ?? -Infinity,
    timeMs(b.metadata.creationTimestamp) ?? -Infinity,
  ];
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
};

/** bySizeOlder is controller.ReplicaSetsBySizeOlder: larger first, then older first. */
export const bySizeOlder: Order = (a, b) => replicasOf(b) - replicasOf(a) || byCreationTimestamp(a, b);

/** bySizeNewer is controller.ReplicaSetsBySizeNewer: larger first, then newer first. */
export const bySizeNewer: Order = (a, b) => replicasOf(b) - replicasOf(a) || byCreationTimestamp(b, a);

/**
 * byRevision is deploymentutil.ReplicaSetsByRevision: lower revision first; equal or unparsable revisions by
 * creation timestamp.
 */
export const byRevision: Order = (a, b) => {
  const [ra, rb] = [revision(a), revision(b)];
  if ('error' in ra || 'error' in rb || ra.value === rb.value) return byCreationTimestamp(a, b);
  return ra.value < rb.value ? -1 : 1;
};

/** sorted is a sorted copy (Go sorts in place; the callers' lists stay as they are here). */
export function sorted(rsList: readonly ReplicaSet[], order: Order): ReplicaSet[] {
  return [...rsList].sort(order);
}

/** filterActiveReplicaSets mirrors controller.FilterActiveReplicaSets: those with spec.replicas > 0. */
export function filterActiveReplicaSets(rsList: readonly (ReplicaSet | undefined)[]): ReplicaSet[] {
  return rsList.filter((rs): rs is ReplicaSet => rs !== undefined && replicasOf(rs) > 0);
}

/**
 * findNewReplicaSet mirrors deploymentutil.FindNewReplicaSet: the oldest ReplicaSet whose template equals the
 * Deployment's, the pod-template-hash label aside (more than one can exist after an upgrade: kubernetes#40415).
 */
export function findNewReplicaSet(d: Deployment, rsList: readonly ReplicaSet[]): ReplicaSet | undefined {
  return sorted(rsList, byCreationTimestamp).find((rs) => equalIgnoreHash(rs.spec.template, d.spec.template));
}

/**
 * findOldReplicaSets mirrors deploymentutil.FindOldReplicaSets: every ReplicaSet but the new one (allOld), and
 * those of them with replicas (requiredOld), oldest first (FindNewReplicaSet sorted upstream's list in place).
 */
export function findOldReplicaSets(
  d: Deployment,
  rsList: readonly ReplicaSet[],
): { readonly requiredOld: ReplicaSet[]; readonly allOld: ReplicaSet[] } {
  const newRS = findNewReplicaSet(d, rsList);
  const allOld = sorted(rsList, byCreationTimestamp).filter((rs) => rs !== newRS);
  return { requiredOld: allOld.filter((rs) => replicasOf(rs) !== 0), allOld };
}

/**
 * findActiveOrLatest mirrors deploymentutil.FindActiveOrLatest: the only active ReplicaSet; with none active, the new
 * one or else the newest old one; with several active, none (they scale proportionally).
 */
export function findActiveOrLatest(
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
): ReplicaSet | undefined {
  if (newRS === undefined && oldRSs.length === 0) return undefined;
  const newestFirst = sorted(oldRSs, (a, b) => byCreationTimestamp(b, a));
  const active = filterActiveReplicaSets([...newestFirst, newRS]);
  if (active.length > 1) return undefined;
  return active[0] ?? newRS ?? newestFirst[0];
}

/** replicaCount mirrors GetReplicaCountForReplicaSets: the sum of spec.replicas. */
export function replicaCount(rsList: readonly (ReplicaSet | undefined)[]): number {
  return rsList.reduce((n, rs) => n + (rs === undefined ? 0 : replicasOf(rs)), 0);
}

type Count = 'replicas' | 'readyReplicas' | 'availableReplicas';

/** statusCount sums one status count (GetActualReplicaCountForReplicaSets, GetReady…, GetAvailable…). */
export function statusCount(rsList: readonly (ReplicaSet | undefined)[], count: Count): number {
  return rsList.reduce((n, rs) => n + (rs?.status?.[count] ?? 0), 0);
}

/**
 * terminatingReplicaCount mirrors GetTerminatingReplicaCountForReplicaSets: the sum of status.terminatingReplicas; a
 * ReplicaSet never synced (no observedGeneration, no count) adds nothing, but one synced without a count makes the
 * sum unknown (null).
 */
export function terminatingReplicaCount(rsList: readonly (ReplicaSet | undefined)[]): number | null {
  let total = 0;
  for (const rs of rsList) {
    const terminating = rs?.status?.terminatingReplicas;
    if (rs === undefined || (terminating == null && (rs.status?.observedGeneration ?? 0) === 0)) continue;
    if (terminating == null) return null;
    total += terminating;
  }
  return total;
}

/**
 * isSaturated mirrors deploymentutil.IsSaturated: the ReplicaSet is sized for the Deployment (its spec and its
 * desired-replicas annotation both equal the Deployment's replicas) and all of them are available.
 */
export function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  if (rs === undefined) return false;
  const desired = rs.metadata.annotations?.[DESIRED_REPLICAS] ?? '';
  if (!/^[+-]?\d+$/.test(desired)) return false;
  const replicas = replicasOf(d);
  return (
    replicasOf(rs) === replicas && Number(desired) === replicas && (rs.status?.availableReplicas ?? 0) === replicas
  );
}

/**
 * newRSNewReplicas mirrors deploymentutil.NewRSNewReplicas: the size the new ReplicaSet may grow to now. Rolling:
 * up to replicas + maxSurge pods in all, never past replicas; Recreate: replicas; another strategy is an error.
 */
export function newRSNewReplicas(d: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): Scaled {
  const replicas = replicasOf(d);
  const type = strategyTypeOf(d);
  if (type === RECREATE) return { value: replicas };
  if (type !== ROLLING_UPDATE) return { error: `deployment type ${type} isn't supported` };
  const surge = getScaledValueFromIntOrPercent(rollingUpdateOf(d)?.maxSurge, replicas, true);
  if ('error' in surge) return surge;
  const current = replicaCount(allRSs);
  const maxTotalPods = replicas + surge.value;
  if (current >= maxTotalPods) return { value: replicasOf(newRS) };
  const scaleUpCount = Math.min(maxTotalPods - current, replicas - replicasOf(newRS));
  return { value: replicasOf(newRS) + scaleUpCount };
}
