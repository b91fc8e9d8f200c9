import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import { timeMs } from '@kcm-bus/k8s/meta-v1.ts';
import { isPodActive, isPodReady, podReadyCondition } from '@kcm-bus/k8s/pod-util.ts';

/** RankedPod is one entry of upstream's ActivePodsWithRanks: a pod and its rank (co-located related pods). */
export type RankedPod = { readonly pod: Pod; readonly rank: number };

/** POD_DELETION_COST is the annotation users set to steer scale-down (core.PodDeletionCost). */
export const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

const PHASE_ORDINAL: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };

/**
 * getPodsToDelete mirrors replica_set.go getPodsToDelete: when fewer than all pods go, rank them by related pods on
 * the same node and sort by activePodsWithRanksLess (at `now`); take the first diff. Deleting all keeps input order.
 */
export function getPodsToDelete(
  pods: readonly Pod[],
  related: readonly Pod[],
  diff: number,
  now: Date,
): readonly Pod[] {
  if (diff >= pods.length) return pods.slice(0, diff);
  const ranked = getPodsRankedByRelatedPodsOnSameNode(pods, related);
  const sorted = [...ranked].sort((a, b) => compareRanked(a, b, now));
  return sorted.slice(0, diff).map((r) => r.pod);
}

/**
 * getPodsRankedByRelatedPodsOnSameNode mirrors upstream's function of that name: a pod's rank is the number of active
 * related pods on its node (unassigned pods share the node "").
 */
export function getPodsRankedByRelatedPodsOnSameNode(
  pods: readonly Pod[],
  related: readonly Pod[],
): readonly RankedPod[] {
  const onNode = new Map<string, number>();
  for (const p of related.filter(isPodActive)) onNode.set(nodeOf(p), (onNode.get(nodeOf(p)) ?? 0) + 1);
  return pods.map((pod) => ({ pod, rank: onNode.get(nodeOf(pod)) ?? 0 }));
}

function compareRanked(a: RankedPod, b: RankedPod, now: Date | undefined): number {
  if (activePodsWithRanksLess(a, b, now)) return -1;
  return activePodsWithRanksLess(b, a, now) ? 1 : 0;
}

/**
 * activePodsWithRanksLess mirrors controller.ActivePodsWithRanks.Less: true when a should be deleted before b.
 * Rules in turn: unassigned, earlier phase, not ready, lower pod-deletion-cost, higher rank, ready more recently,
 * more container restarts, created more recently; times 6 and 8 compare in log2 buckets of their age at `now`
 * (LogarithmicScaleDown), with ties broken by UID. Without `now` times compare exactly.
 */
export function activePodsWithRanksLess(a: RankedPod, b: RankedPod, now: Date | undefined): boolean {
  const [pa, pb] = [a.pod, b.pod];
  if (nodeOf(pa) !== nodeOf(pb) && (nodeOf(pa) === '' || nodeOf(pb) === '')) return nodeOf(pa) === '';
  if (phaseOrdinal(pa) !== phaseOrdinal(pb)) return phaseOrdinal(pa) < phaseOrdinal(pb);
  if (isPodReady(pa) !== isPodReady(pb)) return !isPodReady(pa);
  if (deletionCost(pa) !== deletionCost(pb)) return deletionCost(pa) < deletionCost(pb);
  if (a.rank !== b.rank) return a.rank > b.rank;
  if (isPodReady(pa) && isPodReady(pb)) {
    const byReady = compareTimes(readyTime(pa), readyTime(pb), pa, pb, now);
    if (byReady !== undefined) return byReady;
  }
  const byRestarts = compareMaxContainerRestarts(pa, pb);
  if (byRestarts !== undefined) return byRestarts;
  const byAge = compareTimes(timeMs(pa.metadata.creationTimestamp), timeMs(pb.metadata.creationTimestamp), pa, pb, now);
  return byAge ?? false;
}

/** compareTimes is rules 6 and 8: undefined when equal, else whether the first (more recent or zero) goes first. */
function compareTimes(
  t1: number | undefined,
  t2: number | undefined,
  p1: Pod,
  p2: Pod,
  now: Date | undefined,
): boolean | undefined {
  if (t1 === t2) return undefined;
  if (now === undefined || t1 === undefined || t2 === undefined) return afterOrZero(t1, t2);
  const rankDiff = logarithmicRankDiff(t1, t2, now.getTime());
  return rankDiff === 0 ? p1.metadata.uid < p2.metadata.uid : rankDiff < 0;
}

/** afterOrZero mirrors upstream: t1 after t2, where a zero (absent) time counts as after any other. */
function afterOrZero(t1: number | undefined, t2: number | undefined): boolean {
  if (t1 === undefined || t2 === undefined) return t1 === undefined;
  return t1 > t2;
}

/**
 * logarithmicRankDiff mirrors upstream's: floor(log2(age in ns)) of each time at now (-1 for a time not in the past),
 * first minus second.
 */
export function logarithmicRankDiff(t1: number, t2: number, now: number): number {
  const bucket = (t: number): number => (now - t > 0 ? Math.floor(Math.log2((now - t) * 1e6)) : -1);
  return bucket(t1) - bucket(t2);
}

/** readyTime is podReadyTime: the Ready=True condition's lastTransitionTime, zero (undefined) otherwise. */
function readyTime(pod: Pod): number | undefined {
  const c = podReadyCondition(pod);
  return c?.status === 'True' ? timeMs(c.lastTransitionTime) : undefined;
}

/**
 * deletionCost is helper.GetDeletionCostFromPodAnnotations: the annotation as an int32; absent, malformed (a plus
 * sign, leading zeros, not a number) or out of range counts as 0.
 */
export function deletionCost(pod: Pod): number {
  const value = pod.metadata.annotations?.[POD_DELETION_COST] ?? '';
  const validFirstDigit = value.startsWith('-') || value === '0' || /^[1-9]/.test(value);
  if (!validFirstDigit || !/^-?\d+$/.test(value)) return 0;
  const n = Number(value);
  return n >= -(2 ** 31) && n < 2 ** 31 ? n + 0 : 0; // + 0 turns "-0" into 0
}

/** compareMaxContainerRestarts mirrors upstream: more regular restarts first, then more sidecar restarts. */
function compareMaxContainerRestarts(a: Pod, b: Pod): boolean | undefined {
  const [ra, rb] = [maxContainerRestarts(a), maxContainerRestarts(b)];
  if (ra.regular !== rb.regular) return ra.regular > rb.regular;
  if (ra.sidecar !== rb.sidecar) return ra.sidecar > rb.sidecar;
  return undefined;
}

function maxContainerRestarts(pod: Pod): { regular: number; sidecar: number } {
  const regular = Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => c.restartCount));
  const sidecars = new Set(
    (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name),
  );
  const statuses = (pod.status?.initContainerStatuses ?? []).filter((c) => sidecars.has(c.name));
  return { regular, sidecar: Math.max(0, ...statuses.map((c) => c.restartCount)) };
}

function nodeOf(pod: Pod): string {
  return pod.spec?.nodeName ?? '';
}

function phaseOrdinal(pod: Pod): number {
  return PHASE_ORDINAL[pod.status?.phase ?? ''] ?? 0;
}
