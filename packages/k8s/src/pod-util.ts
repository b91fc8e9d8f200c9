import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import { getCondition } from './conditions.ts';
import type { Pod, PodCondition } from './core-v1.ts';
import { isTerminating, timeMs } from './meta-v1.ts';

/** podKey is upstream's controller.PodKey: `namespace/name`, the key UID-tracking expectations count deletes by. */
export function podKey(pod: Pod): string {
  return objectKey(pod.metadata);
}

/** isPodActive is controller.IsPodActive: neither Succeeded nor Failed, and not being deleted. */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !isTerminating(pod.metadata);
}

/** podReadyCondition is podutil.GetPodReadyCondition: the pod's Ready condition, if it has one. */
export function podReadyCondition(pod: Pod): PodCondition | undefined {
  return getCondition(pod.status ?? {}, 'Ready');
}

/** isPodReady is podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return podReadyCondition(pod)?.status === 'True';
}

/**
 * isPodAvailable is podutil.IsPodAvailable: Ready, and either minReadySeconds is 0 or the Ready condition's
 * lastTransitionTime is set and lies at least minReadySeconds before now.
 */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: Date): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const since = timeMs(podReadyCondition(pod)?.lastTransitionTime);
  return since !== undefined && since + minReadySeconds * 1000 <= now.getTime();
}
