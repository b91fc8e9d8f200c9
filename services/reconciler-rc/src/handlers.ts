import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import { jsonEqual } from '@kcm-bus/k8s/json-equal.ts';
import { labelsEqual } from '@kcm-bus/k8s/labels.ts';
import { controllerOf, isTerminating } from '@kcm-bus/k8s/meta-v1.ts';
import { isPodReady, podKey } from '@kcm-bus/k8s/pod-util.ts';
import type { Lister } from '@kcm-bus/runtime/controller/index.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import type { ObjectEventType } from '@kcm-bus/schemas/watch-record.ts';
import type { ReplicaSetKind, ReplicaSetLike } from './replica-set-kind.ts';
import { getPodControllers, resolveControllerRef } from './set-lookup.ts';

/**
 * ExpectationObservation is what a pod event tells the set's expectations: one of its creations was observed
 * (CreationObserved), or the deletion of podKey (DeletionObserved, counted once per tracked key).
 */
export type ExpectationObservation = {
  readonly setKey: string;
  readonly kind: 'creation' | 'deletion';
  readonly podKey: string;
};

/**
 * PodEventEffect is what upstream's pod handlers do with one event: the set keys to enqueue, the expectation
 * observation to record first, and a set key to enqueue after a delay (the minReadySeconds availability check).
 */
export type PodEventEffect = {
  readonly enqueue: readonly string[];
  readonly observed?: ExpectationObservation;
  readonly enqueueAfterMs?: { readonly key: string; readonly ms: number };
};

/**
 * SetEventEffect is what upstream's set handlers do: keys to enqueue and keys whose expectations to delete
 * (DeleteExpectations, so a set recreated under the same name starts clean).
 */
export type SetEventEffect = { readonly enqueue: readonly string[]; readonly deleteExpectations: readonly string[] };

const NOTHING: PodEventEffect = { enqueue: [] };

/** Sets is what the pod handlers look owners up in: the kind they serve and its lister. */
type Sets = { readonly kind: ReplicaSetKind; readonly sets: Lister<ReplicaSetLike> };

/**
 * onPodEvent mirrors replica_set.go addPod / updatePod / deletePod: `pod` is the new state (Applied) or the last
 * known state (Deleted, a tombstone's object included), `oldPod` the store's previous state (undefined: an add).
 */
export function onPodEvent(
  kind: ReplicaSetKind,
  type: ObjectEventType,
  pod: Pod,
  oldPod: Pod | undefined,
  sets: Lister<ReplicaSetLike>,
): PodEventEffect {
  const s: Sets = { kind, sets };
  if (type === 'Deleted') return deletePod(pod, s);
  return oldPod === undefined ? addPod(pod, s) : updatePod(oldPod, pod, s);
}

/**
 * addPod: a pod already being deleted counts as a deletion (a restart may first see it that way); a pod with a
 * controllerRef to one of our sets is that set's creation; an orphan wakes every set that selects it, observing nothing.
 */
function addPod(pod: Pod, s: Sets): PodEventEffect {
  if (isTerminating(pod.metadata)) return deletePod(pod, s);
  const ref = controllerOf(pod.metadata);
  if (ref === undefined)
    return { enqueue: getPodControllers(s.kind, pod, s.sets).map((set) => objectKey(set.metadata)) };
  const set = resolveControllerRef(s.kind, pod.metadata.namespace ?? '', ref, s.sets);
  if (set === undefined) return NOTHING;
  const setKey = objectKey(set.metadata);
  return { enqueue: [setKey], observed: { setKey, kind: 'creation', podKey: podKey(pod) } };
}

/**
 * updatePod: the same resourceVersion is a resync (nothing); a deletionTimestamp is a deletion (of the old labels'
 * owner too when the labels changed); a changed controllerRef wakes the old owner; an owned pod wakes its owner,
 * after minReadySeconds as well when it just became Ready (v1.37.2 adds no second); an orphan whose labels or ref changed wakes every
 * set that selects it.
 */
function updatePod(old: Pod, cur: Pod, s: Sets): PodEventEffect {
  if (cur.metadata.resourceVersion !== undefined && cur.metadata.resourceVersion === old.metadata.resourceVersion)
    return NOTHING;
  const labelChanged = !labelsEqual(cur.metadata.labels, old.metadata.labels);
  if (isTerminating(cur.metadata)) return merge(deletePod(cur, s), labelChanged ? deletePod(old, s) : NOTHING);
  const [curRef, oldRef] = [controllerOf(cur.metadata), controllerOf(old.metadata)];
  const refChanged = !jsonEqual(curRef ?? null, oldRef ?? null);
  const oldOwner =
    refChanged && oldRef !== undefined
      ? resolveControllerRef(s.kind, old.metadata.namespace ?? '', oldRef, s.sets)
      : undefined;
  const first: PodEventEffect = oldOwner === undefined ? NOTHING : { enqueue: [objectKey(oldOwner.metadata)] };
  if (curRef !== undefined)
    return merge(
      first,
      ownedPodUpdated(old, cur, resolveControllerRef(s.kind, cur.metadata.namespace ?? '', curRef, s.sets)),
    );
  if (!labelChanged && !refChanged) return first;
  return merge(first, { enqueue: getPodControllers(s.kind, cur, s.sets).map((set) => objectKey(set.metadata)) });
}

function ownedPodUpdated(old: Pod, cur: Pod, set: ReplicaSetLike | undefined): PodEventEffect {
  if (set === undefined) return NOTHING;
  const key = objectKey(set.metadata);
  const minReadySeconds = set.spec.minReadySeconds ?? 0;
  if (isPodReady(old) || !isPodReady(cur) || minReadySeconds <= 0) return { enqueue: [key] };
  return { enqueue: [key], enqueueAfterMs: { key, ms: minReadySeconds * 1000 } };
}

/** deletePod: an orphan's deletion concerns no set; an owned pod's deletion is observed by its set, which is woken. */
function deletePod(pod: Pod, s: Sets): PodEventEffect {
  const ref = controllerOf(pod.metadata);
  const set = ref === undefined ? undefined : resolveControllerRef(s.kind, pod.metadata.namespace ?? '', ref, s.sets);
  if (set === undefined) return NOTHING;
  const setKey = objectKey(set.metadata);
  return { enqueue: [setKey], observed: { setKey, kind: 'deletion', podKey: podKey(pod) } };
}

/**
 * merge joins two handler outcomes: keys deduplicated (the workqueue collapses them anyway) and the first
 * observation kept. The second can only differ when one update both set the deletionTimestamp and moved the pod to
 * another set; that set then waits for its expectations to expire, as it would for any lost observation.
 */
function merge(a: PodEventEffect, b: PodEventEffect): PodEventEffect {
  const enqueue = [...new Set([...a.enqueue, ...b.enqueue])];
  const observed = a.observed ?? b.observed;
  const enqueueAfterMs = a.enqueueAfterMs ?? b.enqueueAfterMs;
  return {
    enqueue,
    ...(observed === undefined ? {} : { observed }),
    ...(enqueueAfterMs === undefined ? {} : { enqueueAfterMs }),
  };
}

/**
 * onSetEvent mirrors addRS / updateRS / deleteRS: every add and update enqueues the set (even status-only updates, so
 * a resync retries stalled creates); a delete, or an update whose UID changed (deleted and recreated between two
 * observations), first deletes the key's expectations.
 */
export function onSetEvent(
  type: ObjectEventType,
  set: ReplicaSetLike,
  old: ReplicaSetLike | undefined,
): SetEventEffect {
  const key = objectKey(set.metadata);
  const recreated = old !== undefined && old.metadata.uid !== set.metadata.uid;
  const deleteExpectations = type === 'Deleted' || recreated ? [key] : [];
  return { enqueue: [key], deleteExpectations };
}
