import type { ConditionStatus } from './core-v1.ts';

/** Condition is the shape every core/v1 condition shares (PodCondition, ReplicationControllerCondition, …). */
export type Condition = {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly reason?: string;
};

/** WithConditions is a status holding conditions; absent conditions are an empty list. */
export type WithConditions = { readonly conditions?: readonly Condition[] };

/** ConditionOf is the condition type of a status (ReplicationControllerCondition for ReplicationControllerStatus). */
export type ConditionOf<S extends WithConditions> = NonNullable<S['conditions']>[number];

/** getCondition mirrors GetCondition (replication_controller_utils.go and its siblings): the condition of that type, if any. */
export function getCondition<S extends WithConditions>(status: S, type: string): ConditionOf<S> | undefined {
  return conditionsOf(status).find((c) => c.type === type);
}

/**
 * setCondition mirrors SetCondition: replaces the condition of the same type, appended last, unless one with the
 * same status and reason is already there (then nothing changes, keeping its lastTransitionTime).
 */
export function setCondition<S extends WithConditions>(status: S, cond: ConditionOf<S>): S {
  const current = getCondition(status, cond.type);
  if (current !== undefined && current.status === cond.status && current.reason === cond.reason) return status;
  return withConditions(status, [...conditionsOf(status).filter((c) => c.type !== cond.type), cond]);
}

/** removeCondition mirrors RemoveCondition: the status without conditions of that type. */
export function removeCondition<S extends WithConditions>(status: S, type: string): S {
  return withConditions(
    status,
    conditionsOf(status).filter((c) => c.type !== type),
  );
}

function conditionsOf<S extends WithConditions>(status: S): readonly ConditionOf<S>[] {
  return status.conditions ?? [];
}

/** withConditions sets the conditions, leaving the field out when there are none (Go's omitempty on a nil slice). */
function withConditions<S extends WithConditions>(status: S, conditions: readonly ConditionOf<S>[]): S {
  const { conditions: _dropped, ...rest } = status;
  return (conditions.length === 0 ? rest : { ...rest, conditions }) as S;
}
