import type { OwnerReference, Pod } from '@kcm-bus/k8s/core-v1.ts';
import type { JsonPatchOp } from '@kcm-bus/k8s/json-patch.ts';
import type { LabelsMatcher } from '@kcm-bus/k8s/labels.ts';
import { controllerOf, isTerminating } from '@kcm-bus/k8s/meta-v1.ts';
import type { ObjectKind } from '@kcm-bus/runtime/catalog/index.ts';
import type { ReplicaSetLike } from './replica-set-kind.ts';

/** ClaimAction is a patch ClaimPods decided on: Adopt an orphan, or Release a pod that no longer matches. */
export type ClaimAction = {
  readonly type: 'Adopt' | 'Release';
  readonly pod: Pod;
  readonly ops: readonly JsonPatchOp[];
};

/**
 * ClaimResult is what claiming decided: the pods the set owns now (an orphan it adopts counts only once its patch has
 * applied and the pod carries our controllerRef), and the patches to publish.
 */
export type ClaimResult = { readonly claimed: readonly Pod[]; readonly actions: readonly ClaimAction[] };

/**
 * claimPods mirrors PodControllerRefManager.ClaimPods / ClaimObject over the set's active candidate pods, with the
 * sync's selector: a pod controlled by someone else is ignored; ours and matching is claimed (even while the set is
 * being deleted); ours and no longer matching is released unless the set is being deleted; an orphan is adopted
 * when it matches, is not itself terminating and the set is not being deleted (canAdopt from the lister's view: see
 * README, "Adoption"). `owner` is the set's kind as its pods' controller references name it.
 */
export function claimPods(
  set: ReplicaSetLike,
  owner: ObjectKind,
  matches: LabelsMatcher,
  pods: readonly Pod[],
): ClaimResult {
  const claimed: Pod[] = [];
  const actions: ClaimAction[] = [];
  const deleting = isTerminating(set.metadata);
  for (const pod of pods) {
    const ref = controllerOf(pod.metadata);
    const match = matches(pod.metadata.labels);
    if (ref !== undefined) {
      if (ref.uid !== set.metadata.uid) continue;
      if (match) claimed.push(pod);
      else if (!deleting) actions.push({ type: 'Release', pod, ops: releaseOps(pod, set) });
    } else if (
      match &&
      !deleting &&
      !isTerminating(pod.metadata) &&
      pod.metadata.namespace === set.metadata.namespace
    ) {
      actions.push({ type: 'Adopt', pod, ops: adoptOps(pod, set, owner) });
    }
  }
  return { claimed, actions };
}

/** newControllerRef is metav1.NewControllerRef(set, its GVK): controller and blockOwnerDeletion true. */
export function newControllerRef(set: ReplicaSetLike, owner: ObjectKind): OwnerReference {
  const { name, uid } = set.metadata;
  return { apiVersion: owner.apiVersion, kind: owner.kind, name, uid, controller: true, blockOwnerDeletion: true };
}

const REFS = '/metadata/ownerReferences';

/**
 * adoptOps is AdoptPod's patch as a guarded json patch (the writer puts the pod-UID `test` first). Upstream's
 * strategic merge adds the controllerRef, merging into an existing ref of ours by uid. Here every owner ref we saw
 * must still be there with the same uid and controller flag, or the pod must still have none; then our
 * non-controller ref is replaced by the controllerRef, or it is appended. A controller added concurrently either
 * fails a test (Conflict) or is appended next to ours, which the apiserver's ValidateOwnerReferences rejects (only
 * one controller), exactly the guard upstream relies on.
 */
export function adoptOps(pod: Pod, set: ReplicaSetLike, owner: ObjectKind): readonly JsonPatchOp[] {
  const refs = pod.metadata.ownerReferences ?? [];
  const controllerRef = newControllerRef(set, owner);
  if (refs.length === 0)
    return [
      { op: 'test', path: REFS, value: null },
      { op: 'add', path: REFS, value: [controllerRef] },
    ];
  const guard = refs.flatMap((r, i): JsonPatchOp[] => [
    { op: 'test', path: `${REFS}/${i}/uid`, value: r.uid },
    { op: 'test', path: `${REFS}/${i}/controller`, value: r.controller ?? null },
  ]);
  const ours = refs.findIndex((r) => r.uid === set.metadata.uid);
  const write: JsonPatchOp =
    ours >= 0
      ? { op: 'replace', path: `${REFS}/${ours}`, value: controllerRef }
      : { op: 'add', path: `${REFS}/-`, value: controllerRef };
  return [...guard, write];
}

/**
 * releaseOps is ReleasePod's patch (GenerateDeleteOwnerRefStrategicMergeBytes removes our ref by uid) as a json
 * patch: each of our refs, last first, is tested to still be at its index and removed.
 */
export function releaseOps(pod: Pod, set: ReplicaSetLike): readonly JsonPatchOp[] {
  const refs = pod.metadata.ownerReferences ?? [];
  const indexes = refs.flatMap((r, i) => (r.uid === set.metadata.uid ? [i] : [])).reverse();
  return indexes.flatMap((i): JsonPatchOp[] => [
    { op: 'test', path: `${REFS}/${i}/uid`, value: set.metadata.uid },
    { op: 'remove', path: `${REFS}/${i}` },
  ]);
}
