import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import { jsonEqual } from '@kcm-bus/k8s/json-equal.ts';
import { labelsEqual } from '@kcm-bus/k8s/labels.ts';
import { controllerOf, isTerminating } from '@kcm-bus/k8s/meta-v1.ts';
import type { Lister } from '@kcm-bus/runtime/controller/index.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import type { ObjectEventType } from '@kcm-bus/schemas/watch-record.ts';
import { getDeploymentForPod, getDeploymentsForReplicaSet, resolveControllerRef } from './lookup.ts';
import { RECREATE, strategyTypeOf } from './spec.ts';

const keysOf = (ds: readonly (Deployment | undefined)[]): string[] =>
  ds.flatMap((d) => (d === undefined ? [] : [objectKey(d.metadata)]));

/**
 * onReplicaSetEvent mirrors deployment_controller.go addReplicaSet / updateReplicaSet / deleteReplicaSet and returns
 * the Deployment keys to enqueue: `rs` is the new state (Applied) or the last known one (Deleted, a tombstone's
 * object included), `old` the store's previous state (undefined: an add).
 */
export function onReplicaSetEvent(
  type: ObjectEventType,
  rs: ReplicaSet,
  old: ReplicaSet | undefined,
  deployments: Lister<Deployment>,
): string[] {
  if (type === 'Deleted') return deleteReplicaSet(rs, deployments);
  return old === undefined ? addReplicaSet(rs, deployments) : updateReplicaSet(old, rs, deployments);
}

/**
 * addReplicaSet: one already being deleted counts as a delete (a restart may first see it so); one with a
 * controllerRef wakes that Deployment; an orphan wakes every Deployment that selects it, to adopt it.
 */
function addReplicaSet(rs: ReplicaSet, deployments: Lister<Deployment>): string[] {
  if (isTerminating(rs.metadata)) return deleteReplicaSet(rs, deployments);
  const ref = controllerOf(rs.metadata);
  if (ref !== undefined) return keysOf([resolveControllerRef(rs.metadata.namespace ?? '', ref, deployments)]);
  return keysOf(getDeploymentsForReplicaSet(rs, deployments));
}

/**
 * updateReplicaSet: the same resourceVersion is a resync (nothing); a changed controllerRef wakes the old owner; one
 * with a controllerRef wakes its owner; an orphan whose labels or controllerRef changed wakes every Deployment that
 * selects it.
 */
function updateReplicaSet(old: ReplicaSet, cur: ReplicaSet, deployments: Lister<Deployment>): string[] {
  if (cur.metadata.resourceVersion === old.metadata.resourceVersion) return [];
  const [curRef, oldRef] = [controllerOf(cur.metadata), controllerOf(old.metadata)];
  const refChanged = !jsonEqual(curRef ?? null, oldRef ?? null);
  const namespace = cur.metadata.namespace ?? '';
  const oldOwner =
    refChanged && oldRef !== undefined
      ? resolveControllerRef(old.metadata.namespace ?? '', oldRef, deployments)
      : undefined;
  if (curRef !== undefined) return unique(keysOf([oldOwner, resolveControllerRef(namespace, curRef, deployments)]));
  const changed = refChanged || !labelsEqual(cur.metadata.labels, old.metadata.labels);
  return unique(keysOf([oldOwner, ...(changed ? getDeploymentsForReplicaSet(cur, deployments) : [])]));
}

/** deleteReplicaSet: an orphan's deletion concerns no Deployment; an owned one's wakes its owner. */
function deleteReplicaSet(rs: ReplicaSet, deployments: Lister<Deployment>): string[] {
  const ref = controllerOf(rs.metadata);
  return ref === undefined ? [] : keysOf([resolveControllerRef(rs.metadata.namespace ?? '', ref, deployments)]);
}

/**
 * onPodEvent mirrors deployment_controller.go deletePod, the only pod handler upstream registers: a deleted pod
 * wakes the Deployment owning its ReplicaSet if that Deployment uses the Recreate strategy (it waits for the old
 * pods to be gone; v1.37.2 enqueues it on every such deletion, not only the last one's).
 */
export function onPodEvent(
  type: ObjectEventType,
  pod: Pod,
  replicaSets: Lister<ReplicaSet>,
  deployments: Lister<Deployment>,
): string[] {
  if (type !== 'Deleted') return [];
  const d = getDeploymentForPod(pod, replicaSets, deployments);
  return d !== undefined && strategyTypeOf(d) === RECREATE ? keysOf([d]) : [];
}

function unique(keys: readonly string[]): string[] {
  return [...new Set(keys)];
}
