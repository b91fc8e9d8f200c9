import type { Pod, ReplicationController } from '@kcm-bus/k8s/core-v1.ts';
import { jsonEqual } from '@kcm-bus/k8s/json-equal.ts';
import { labelsEqual } from '@kcm-bus/k8s/labels.ts';
import { controllerOf, isTerminating } from '@kcm-bus/k8s/meta-v1.ts';
import { isPodReady, podKey } from '@kcm-bus/k8s/pod-util.ts';
import type { Lister } from '@kcm-bus/runtime/reconcile/reconciler.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import type { ObjectEventType } from '@kcm-bus/schemas/watch-record.ts';
import { getPodControllers, resolveControllerRef } from './rc-lookup.ts';

/**
 * ExpectationObservation is what a pod event tells the RC's expectations: one of its creations was observed
 * (CreationObserved), or the deletion of podKey (DeletionObserved, counted once per tracked key).
 */
export type ExpectationObservation = { readonly rcKey: string; readonly kind: 'creation' | 'deletion'; readonly podKey: string };

/**
 * PodEventEffect is what upstream's pod handlers do with one event: the RC keys to enqueue, the expectation
 * observation to record first, and an RC key to enqueue after a delay (the minReadySeconds availability check).
 */
export type PodEventEffect = {
  readonly enqueue: readonly string[];
  readonly observed?: ExpectationObservation;
  readonly enqueueAfterMs?: { readonly key: string; readonly ms: number };
};

/**
 * RcEventEffect is what upstream's RC handlers do: keys to enqueue and keys whose expectations to delete
 * (DeleteExpectations, so an RC recreated under the same name starts clean).
 */
export type RcEventEffect = { readonly enqueue: readonly string[]; readonly deleteExpectations: readonly string[] };

const NOTHING: PodEventEffect = { enqueue: [] };

/**
 * onPodEvent mirrors replica_set.go addPod / updatePod / deletePod: `pod` is the new state (Applied) or the last
 * known state (Deleted, a tombstone's object included), `oldPod` the store's previous state (undefined: an add).
 */
export function onPodEvent(type: ObjectEventType, pod: Pod, oldPod: Pod | undefined, rcs: Lister<ReplicationController>): PodEventEffect {
  if (type === 'Deleted') return deletePod(pod, rcs);
  return oldPod === undefined ? addPod(pod, rcs) : updatePod(oldPod, pod, rcs);
}

/**
 * addPod: a pod already being deleted counts as a deletion (a restart may first see it that way); a pod with a
 * controllerRef to one of our RCs is that RC's creation; an orphan wakes every RC that selects it, observing nothing.
 */
function addPod(pod: Pod, rcs: Lister<ReplicationController>): PodEventEffect {
  if (isTerminating(pod.metadata)) return deletePod(pod, rcs);
  const ref = controllerOf(pod.metadata);
  if (ref === undefined) return { enqueue: getPodControllers(pod, rcs).map((rc) => objectKey(rc.metadata)) };
  const rc = resolveControllerRef(pod.metadata.namespace ?? '', ref, rcs);
  if (rc === undefined) return NOTHING;
  const rcKey = objectKey(rc.metadata);
  return { enqueue: [rcKey], observed: { rcKey, kind: 'creation', podKey: podKey(pod) } };
}

/**
 * updatePod: the same resourceVersion is a resync (nothing); a deletionTimestamp is a deletion (of the old labels'
 * owner too when the labels changed); a changed controllerRef wakes the old owner; an owned pod wakes its owner,
 * after minReadySeconds as well when it just became Ready (v1.37.2 adds no second); an orphan whose labels or ref changed wakes every
 * RC that selects it.
 */
function updatePod(old: Pod, cur: Pod, rcs: Lister<ReplicationController>): PodEventEffect {
  if (cur.metadata.resourceVersion !== undefined && cur.metadata.resourceVersion === old.metadata.resourceVersion) return NOTHING;
  const labelChanged = !labelsEqual(cur.metadata.labels, old.metadata.labels);
  if (isTerminating(cur.metadata)) return merge(deletePod(cur, rcs), labelChanged ? deletePod(old, rcs) : NOTHING);
  const [curRef, oldRef] = [controllerOf(cur.metadata), controllerOf(old.metadata)];
  const refChanged = !jsonEqual(curRef ?? null, oldRef ?? null);
  const oldOwner = refChanged && oldRef !== undefined ? resolveControllerRef(old.metadata.namespace ?? '', oldRef, rcs) : undefined;
  const first: PodEventEffect = oldOwner === undefined ? NOTHING : { enqueue: [objectKey(oldOwner.metadata)] };
  if (curRef !== undefined) return merge(first, ownedPodUpdated(old, cur, resolveControllerRef(cur.metadata.namespace ?? '', curRef, rcs)));
  if (!labelChanged && !refChanged) return first;
  return merge(first, { enqueue: getPodControllers(cur, rcs).map((rc) => objectKey(rc.metadata)) });
}

function ownedPodUpdated(old: Pod, cur: Pod, rc: ReplicationController | undefined): PodEventEffect {
  if (rc === undefined) return NOTHING;
  const key = objectKey(rc.metadata);
  const minReadySeconds = rc.spec.minReadySeconds ?? 0;
  if (isPodReady(old) || !isPodReady(cur) || minReadySeconds <= 0) return { enqueue: [key] };
  return { enqueue: [key], enqueueAfterMs: { key, ms: minReadySeconds * 1000 } };
}

/** deletePod: an orphan's deletion concerns no RC; an owned pod's deletion is observed by its RC, which is woken. */
function deletePod(pod: Pod, rcs: Lister<ReplicationController>): PodEventEffect {
  const ref = controllerOf(pod.metadata);
  const rc = ref === undefined ? undefined : resolveControllerRef(pod.metadata.namespace ?? '', ref, rcs);
  if (rc === undefined) return NOTHING;
  const rcKey = objectKey(rc.metadata);
  return { enqueue: [rcKey], observed: { rcKey, kind: 'deletion', podKey: podKey(pod) } };
}

/**
 * merge joins two handler outcomes: keys deduplicated (the workqueue collapses them anyway) and the first
 * observation kept. The second can only differ when one update both set the deletionTimestamp and moved the pod to
 * another RC; that RC then waits for its expectations to expire, as it would for any lost observation.
 */
function merge(a: PodEventEffect, b: PodEventEffect): PodEventEffect {
  const enqueue = [...new Set([...a.enqueue, ...b.enqueue])];
  const observed = a.observed ?? b.observed;
  const enqueueAfterMs = a.enqueueAfterMs ?? b.enqueueAfterMs;
  return { enqueue, ...(observed === undefined ? {} : { observed }), ...(enqueueAfterMs === undefined ? {} : { enqueueAfterMs }) };
}

/**
 * onRcEvent mirrors addRS / updateRS / deleteRS: every add and update enqueues the RC (even status-only updates, so
 * a resync retries stalled creates); a delete, or an update whose UID changed (deleted and recreated between two
 * observations), first deletes the key's expectations.
 */
export function onRcEvent(type: ObjectEventType, rc: ReplicationController, oldRc: ReplicationController | undefined): RcEventEffect {
  const key = objectKey(rc.metadata);
  const recreated = oldRc !== undefined && oldRc.metadata.uid !== rc.metadata.uid;
  const deleteExpectations = type === 'Deleted' || recreated ? [key] : [];
  return { enqueue: [key], deleteExpectations };
}
