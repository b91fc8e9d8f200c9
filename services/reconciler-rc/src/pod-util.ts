import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import type { ObjectMeta, OwnerReference, Pod, PodCondition } from './core-v1.ts';

/** Labels is a label set as the API serves it (absent, null or a map). */
export type Labels = Readonly<Record<string, string>> | null | undefined;

/** podKey is upstream's controller.PodKey: `namespace/name`, the key UID-tracking expectations count deletes by. */
export function podKey(pod: Pod): string {
  return objectKey(pod.metadata);
}

/** controllerOf is metav1.GetControllerOf: the owner reference with controller=true, if any. */
export function controllerOf(meta: Pick<ObjectMeta, 'ownerReferences'>): OwnerReference | undefined {
  return (meta.ownerReferences ?? []).find((ref) => ref.controller === true);
}

/**
 * selectorMatches is labels.Set(rc.spec.selector).AsSelectorPreValidated().Matches(labels): every selector pair is
 * in the labels. A nil or empty selector matches nothing (GetPodControllers: "it should match nothing, not
 * everything"); the apiserver never serves one, as it defaults the selector to the template labels.
 */
export function selectorMatches(selector: Labels, labels: Labels): boolean {
  const pairs = Object.entries(selector ?? {});
  return pairs.length > 0 && isSubset(pairs, labels);
}

/**
 * labelsSuperset is true when labels carry every pair of want; an empty want matches everything (calculateStatus's
 * template-label count uses the same AsSelectorPreValidated, where an empty set is labels.Everything()).
 */
export function labelsSuperset(want: Labels, labels: Labels): boolean {
  return isSubset(Object.entries(want ?? {}), labels);
}

function isSubset(pairs: readonly (readonly [string, string])[], labels: Labels): boolean {
  return pairs.every(([k, v]) => labels?.[k] === v);
}

/** labelsEqual is reflect.DeepEqual on two label maps, absent and empty being the same. */
export function labelsEqual(a: Labels, b: Labels): boolean {
  const ea = Object.entries(a ?? {});
  return ea.length === Object.keys(b ?? {}).length && isSubset(ea, b);
}

/** isTerminating is true once the object carries a deletionTimestamp. */
export function isTerminating(meta: Pick<ObjectMeta, 'deletionTimestamp'>): boolean {
  return meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null;
}

/** isPodActive is controller.IsPodActive: neither Succeeded nor Failed, and not being deleted. */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !isTerminating(pod.metadata);
}

/** podReadyCondition is podutil.GetPodReadyCondition: the pod's Ready condition, if it has one. */
export function podReadyCondition(pod: Pod): PodCondition | undefined {
  return (pod.status?.conditions ?? []).find((c) => c.type === 'Ready');
}

/** isPodReady is podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return podReadyCondition(pod)?.status === 'True';
}

/** timeMs is an RFC 3339 time in epoch milliseconds, undefined for an absent (zero) time. */
export function timeMs(time: string | null | undefined): number | undefined {
  if (time === undefined || time === null || time === '') return undefined;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? undefined : ms;
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

/**
 * rfc3339 is a time as metav1.Time marshals it: RFC 3339 with whole seconds (what a condition's
 * lastTransitionTime looks like when the apiserver serves it back).
 */
export function rfc3339(now: Date): string {
  return now.toISOString().replace(/\.\d+Z$/, 'Z');
}
