import { timeMs } from '@kcm-bus/k8s/meta-v1.ts';
import type { Taint, Toleration } from '@kcm-bus/k8s/node-v1.ts';
import { getMatchingTolerations, getMinTolerationTime } from '@kcm-bus/k8s/tolerations.ts';
import type { ScheduledEviction } from './timed-evictions.ts';

/**
 * EvictionDecision is what processPodOnNode decides for a pod: cancel any scheduled eviction; evict now (after
 * cancelling a scheduled one); or keep or start the schedule `eviction` (due when fireAt <= now).
 */
export type EvictionDecision =
  | { readonly action: 'cancel' }
  | { readonly action: 'evictNow' }
  | { readonly action: 'schedule'; readonly eviction: ScheduledEviction };

/** getNoExecuteTaints is tainteviction's getNoExecuteTaints: the taints with effect NoExecute, in order. */
export function getNoExecuteTaints(taints: readonly Taint[] | undefined): readonly Taint[] {
  return (taints ?? []).filter((t) => t.effect === 'NoExecute');
}

/**
 * processPodOnNode mirrors the controller's processPodOnNode for the NoExecute taints of the pod's node: none →
 * cancel; a taint no toleration tolerates → evict now; tolerated forever (minTolerationTime infinite) → cancel; an
 * eviction already scheduled is kept as it is (upstream keeps the running timer, so lengthening or shortening a
 * toleration does not move it); else a schedule from evictionStart plus minTolerationTime.
 */
export function processPodOnNode(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  scheduled: ScheduledEviction | undefined,
  now: Date,
): EvictionDecision {
  if (taints.length === 0) return { action: 'cancel' };
  const { allTolerated, used } = getMatchingTolerations(taints, tolerations);
  if (!allTolerated) return { action: 'evictNow' };
  const minTolerationTime = getMinTolerationTime(used);
  if (minTolerationTime === Infinity) return { action: 'cancel' };
  if (scheduled !== undefined) return { action: 'schedule', eviction: scheduled };
  return { action: 'schedule', eviction: { fireAt: evictionStart(taints, used, now) + minTolerationTime } };
}

/**
 * evictionStart is when the pod's tolerations started counting. Upstream starts its timer when it processes the
 * pod (now) and keeps that start while the timer runs, which is the moment the first taint tolerated for a limited
 * time arrived; a timer lost with a restart starts again. Here the start is read from the objects so a restart
 * recomputes it: the earliest timeAdded of the taints whose toleration has a tolerationSeconds, now for a taint
 * without timeAdded, and never later than now.
 */
export function evictionStart(taints: readonly Taint[], used: readonly Toleration[], now: Date): number {
  let start = now.getTime();
  taints.forEach((taint, i) => {
    if (used[i]?.tolerationSeconds === undefined) return;
    start = Math.min(start, timeMs(taint.timeAdded) ?? start);
  });
  return start;
}
