import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { getMaxReplicasAnnotation } from './annotations.ts';
import { maxSurge } from './fenceposts.ts';
import { replicasOf } from './spec.ts';

/**
 * getReplicaSetProportion mirrors deploymentutil.GetReplicaSetProportion: the share of a scaling event's replicas
 * (toAdd, of which `added` are given out already) a ReplicaSet gets: its fraction, bounded by what is left to give
 * out; nothing for an empty ReplicaSet (one never scales up from zero proportionally).
 */
export function getReplicaSetProportion(rs: ReplicaSet, d: Deployment, toAdd: number, added: number): number {
  if (replicasOf(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = getReplicaSetFraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

/**
 * getReplicaSetFraction mirrors deploymentutil.getReplicaSetFraction: how many replicas a ReplicaSet gains (or
 * loses) when the Deployment goes from the size in its max-replicas annotation to replicas + maxSurge, rounded; all
 * of them when the Deployment scales to zero. Without a usable annotation the Deployment's status.replicas stands
 * in for the old size, and without that, nothing moves.
 */
export function getReplicaSetFraction(rs: ReplicaSet, d: Deployment): number {
  if (replicasOf(d) === 0) return -replicasOf(rs);
  const deploymentMaxReplicas = replicasOf(d) + maxSurge(d);
  const annotated = getMaxReplicasAnnotation(rs) ?? 0;
  const before = annotated === 0 ? (d.status?.replicas ?? 0) : annotated;
  if (before === 0) return 0;
  return roundToInt32((replicasOf(rs) * deploymentMaxReplicas) / before) - replicasOf(rs);
}

/** roundToInt32 is integer.RoundToInt32 (math.Round): halves away from zero. */
function roundToInt32(a: number): number {
  return Math.sign(a) * Math.round(Math.abs(a));
}
