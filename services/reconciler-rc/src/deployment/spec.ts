import type { Deployment, RollingUpdateDeployment } from '@kcm-bus/k8s/apps-v1.ts';

/*
 * The apiserver defaults every Deployment it serves (apps/v1 SetDefaults_Deployment) and upstream's controller
 * dereferences those fields as set. The readers below give a field as the apiserver would have defaulted it when it
 * is absent (null and absent are alike on our topics), so the decision code reads what upstream reads.
 */

/** MAX_INT32 is math.MaxInt32: revisionHistoryLimit and progressDeadlineSeconds set to it mean "no limit". */
export const MAX_INT32 = 2147483647;

/** RECREATE is apps.RecreateDeploymentStrategyType. */
export const RECREATE = 'Recreate';

/** ROLLING_UPDATE is apps.RollingUpdateDeploymentStrategyType, the default strategy. */
export const ROLLING_UPDATE = 'RollingUpdate';

/** replicasOf is `*spec.replicas` of a Deployment or a ReplicaSet, 1 when absent (both kinds' default). */
export function replicasOf(o: { readonly spec: { readonly replicas?: number | null } }): number {
  return o.spec.replicas ?? 1;
}

/** strategyTypeOf is spec.strategy.type, RollingUpdate when absent. */
export function strategyTypeOf(d: Deployment): string {
  return d.spec.strategy?.type || ROLLING_UPDATE;
}

/** isRollingUpdate mirrors deploymentutil.IsRollingUpdate. */
export function isRollingUpdate(d: Deployment): boolean {
  return strategyTypeOf(d) === ROLLING_UPDATE;
}

/**
 * rollingUpdateOf is spec.strategy.rollingUpdate of a RollingUpdate Deployment with maxSurge and maxUnavailable
 * 25% when absent; a Recreate Deployment has none (undefined).
 */
export function rollingUpdateOf(d: Deployment): Required<RollingUpdateDeployment> | undefined {
  if (!isRollingUpdate(d)) return undefined;
  const r = d.spec.strategy?.rollingUpdate;
  return { maxSurge: r?.maxSurge ?? '25%', maxUnavailable: r?.maxUnavailable ?? '25%' };
}

/** revisionHistoryLimitOf is spec.revisionHistoryLimit, 10 when absent. */
export function revisionHistoryLimitOf(d: Deployment): number {
  return d.spec.revisionHistoryLimit ?? 10;
}

/** hasRevisionHistoryLimit mirrors deploymentutil.HasRevisionHistoryLimit: a limit other than MaxInt32. */
export function hasRevisionHistoryLimit(d: Deployment): boolean {
  return revisionHistoryLimitOf(d) !== MAX_INT32;
}

/** progressDeadlineSecondsOf is spec.progressDeadlineSeconds, 600 when absent. */
export function progressDeadlineSecondsOf(d: Deployment): number {
  return d.spec.progressDeadlineSeconds ?? 600;
}

/** hasProgressDeadline mirrors deploymentutil.HasProgressDeadline: a deadline other than MaxInt32. */
export function hasProgressDeadline(d: Deployment): boolean {
  return progressDeadlineSecondsOf(d) !== MAX_INT32;
}
