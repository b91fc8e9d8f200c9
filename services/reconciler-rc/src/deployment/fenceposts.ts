import type { Deployment, IntOrString } from '@kcm-bus/k8s/apps-v1.ts';
import { replicasOf, rollingUpdateOf, ROLLING_UPDATE, strategyTypeOf } from './spec.ts';

/** Scaled is a count, or why an IntOrString is none (intstr's error text). */
export type Scaled = { readonly value: number } | { readonly error: string };

/**
 * getScaledValueFromIntOrPercent mirrors intstr.GetScaledValueFromIntOrPercent: a number as is; a percentage of
 * total, rounded up or down; any other string, or none, is an error.
 */
export function getScaledValueFromIntOrPercent(
  value: IntOrString | null | undefined,
  total: number,
  roundUp: boolean,
): Scaled {
  if (value == null) return { error: 'nil value for IntOrString' };
  if (typeof value === 'number') return { value };
  if (!value.endsWith('%')) return { error: 'invalid value for IntOrString: invalid type: string is not a percentage' };
  const digits = value.slice(0, -1);
  if (!/^[+-]?\d+$/.test(digits))
    return { error: `invalid value for IntOrString: invalid value ${JSON.stringify(value)}: invalid syntax` };
  const scaled = (Number(digits) * total) / 100;
  return { value: roundUp ? Math.ceil(scaled) : Math.floor(scaled) };
}

/** Fenceposts are a rollout's resolved bounds: how many pods over and under the desired count it may run. */
export type Fenceposts = { readonly surge: number; readonly unavailable: number };

/**
 * resolveFenceposts mirrors deploymentutil.ResolveFenceposts: maxSurge rounded up, maxUnavailable rounded down (an
 * absent bound is 0); when both come to 0, maxUnavailable is 1, so that a rollout can always move.
 */
export function resolveFenceposts(
  maxSurge: IntOrString | null | undefined,
  maxUnavailable: IntOrString | null | undefined,
  desired: number,
): Fenceposts | { readonly error: string } {
  const surge = getScaledValueFromIntOrPercent(maxSurge ?? 0, desired, true);
  if ('error' in surge) return surge;
  const unavailable = getScaledValueFromIntOrPercent(maxUnavailable ?? 0, desired, false);
  if ('error' in unavailable) return unavailable;
  if (surge.value === 0 && unavailable.value === 0) return { surge: 0, unavailable: 1 };
  return { surge: surge.value, unavailable: unavailable.value };
}

/** fencepostsOf resolves a RollingUpdate Deployment's bounds (none for Recreate; an invalid bound counts 0, as validation forbids it). */
function fencepostsOf(d: Deployment): Fenceposts {
  const r = rollingUpdateOf(d);
  const resolved = r === undefined ? undefined : resolveFenceposts(r.maxSurge, r.maxUnavailable, replicasOf(d));
  return resolved === undefined || 'error' in resolved ? { surge: 0, unavailable: 0 } : resolved;
}

/** maxSurge mirrors deploymentutil.MaxSurge: 0 unless a rolling update. */
export function maxSurge(d: Deployment): number {
  return fencepostsOf(d).surge;
}

/** maxUnavailable mirrors deploymentutil.MaxUnavailable: 0 unless a rolling update of some replicas; at most replicas. */
export function maxUnavailable(d: Deployment): number {
  const replicas = replicasOf(d);
  if (replicas === 0) return 0;
  return Math.min(fencepostsOf(d).unavailable, replicas);
}

/** minAvailable mirrors deploymentutil.MinAvailable: replicas less maxUnavailable, 0 unless a rolling update. */
export function minAvailable(d: Deployment): number {
  return strategyTypeOf(d) === ROLLING_UPDATE ? replicasOf(d) - maxUnavailable(d) : 0;
}
