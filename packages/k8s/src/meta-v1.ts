import type { ObjectMeta, OwnerReference } from './core-v1.ts';

/** controllerOf is metav1.GetControllerOf: the owner reference with controller=true, if any. */
export function controllerOf(meta: Pick<ObjectMeta, 'ownerReferences'>): OwnerReference | undefined {
  return (meta.ownerReferences ?? []).find((ref) => ref.controller === true);
}

/** isTerminating is true once the object carries a deletionTimestamp (metadata.DeletionTimestamp != nil). */
export function isTerminating(meta: Pick<ObjectMeta, 'deletionTimestamp'>): boolean {
  return meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null;
}

/** timeMs is a metav1.Time (RFC 3339) in epoch milliseconds, undefined for an absent (zero) or unparsable time. */
export function timeMs(time: string | null | undefined): number | undefined {
  if (time === undefined || time === null || time === '') return undefined;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * rfc3339 is a time as metav1.Time marshals it: RFC 3339 with whole seconds (what a condition's
 * lastTransitionTime looks like when the apiserver serves it back).
 */
export function rfc3339(now: Date): string {
  return now.toISOString().replace(/\.\d+Z$/, 'Z');
}

/**
 * rfc3339Nano is Go's time.Format(time.RFC3339Nano) of a UTC time: the fraction without trailing zeros, none when
 * whole seconds (`2026-11-23T10:00:00Z`, `2026-11-23T10:00:00.5Z`).
 */
export function rfc3339Nano(time: Date): string {
  return time.toISOString().replace(/\.(\d*?)0*Z$/, (_all, digits: string) => (digits === '' ? 'Z' : `.${digits}Z`));
}
