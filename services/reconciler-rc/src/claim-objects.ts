import type { ObjectMeta, OwnerReference } from '@kcm-bus/k8s/core-v1.ts';
import type { JsonPatchOp } from '@kcm-bus/k8s/json-patch.ts';
import type { LabelsMatcher } from '@kcm-bus/k8s/labels.ts';
import { controllerOf, isTerminating } from '@kcm-bus/k8s/meta-v1.ts';
import type { ObjectKind } from '@kcm-bus/runtime/catalog/index.ts';

/** Owned is what claiming reads of a controlled object (a pod, a ReplicaSet) and of its controller: the metadata. */
export type Owned = { readonly metadata: ObjectMeta };

/** ClaimAction is a patch claiming decided on: Adopt an orphan, or Release an object that no longer matches. */
export type ClaimAction<T extends Owned> = {
  readonly type: 'Adopt' | 'Release';
  readonly object: T;
  readonly ops: readonly JsonPatchOp[];
};

/**
 * ClaimResult is what claiming decided: the objects the controller owns now (an orphan it adopts counts only once its
 * patch has applied and the object carries our controllerRef), and the patches to publish.
 */
export type ClaimResult<T extends Owned> = {
  readonly claimed: readonly T[];
  readonly actions: readonly ClaimAction<T>[];
};

/**
 * claimObjects mirrors BaseControllerRefManager.ClaimObject over a list, as ClaimPods (a set's active candidate
 * pods) and ClaimReplicaSets (a Deployment's ReplicaSets) run it, with the sync's selector: an object controlled by
 * someone else is ignored; ours and matching is claimed (even while the controller is being deleted); ours and no
 * longer matching is released unless the controller is being deleted; an orphan is adopted when it matches, is not
 * itself terminating, is in the controller's namespace and the controller is not being deleted (canAdopt from the
 * lister's view: see README, "Adoption"). `kind` is the controller's kind as controller references name it.
 */
export function claimObjects<T extends Owned>(
  controller: Owned,
  kind: ObjectKind,
  matches: LabelsMatcher,
  objects: readonly T[],
): ClaimResult<T> {
  const claimed: T[] = [];
  const actions: ClaimAction<T>[] = [];
  const deleting = isTerminating(controller.metadata);
  for (const object of objects) {
    const ref = controllerOf(object.metadata);
    const match = matches(object.metadata.labels);
    if (ref !== undefined) {
      if (ref.uid !== controller.metadata.uid) continue;
      if (match) claimed.push(object);
      else if (!deleting) actions.push({ type: 'Release', object, ops: releaseOps(object, controller) });
    } else if (
      match &&
      !deleting &&
      !isTerminating(object.metadata) &&
      object.metadata.namespace === controller.metadata.namespace
    ) {
      actions.push({ type: 'Adopt', object, ops: adoptOps(object, controller, kind) });
    }
  }
  return { claimed, actions };
}

/** newControllerRef is metav1.NewControllerRef(controller, its GVK): controller and blockOwnerDeletion true. */
export function newControllerRef(controller: Owned, kind: ObjectKind): OwnerReference {
  const { name, uid } = controller.metadata;
  return { apiVersion: kind.apiVersion, kind: kind.kind, name, uid, controller: true, blockOwnerDeletion: true };
}

const REFS = '/metadata/ownerReferences';

/**
 * adoptOps is AdoptPod's (AdoptReplicaSet's) patch as a guarded json patch (the writer puts the object-UID `test`
 * first). Upstream's strategic merge adds the controllerRef, merging into an existing ref of ours by uid. Here every
 * owner ref we saw must still be there with the same uid and controller flag, or the object must still have none;
 * then our non-controller ref is replaced by the controllerRef, or it is appended. A controller added concurrently
 * either fails a test (Conflict) or is appended next to ours, which the apiserver's ValidateOwnerReferences rejects
 * (only one controller), exactly the guard upstream relies on.
 */
export function adoptOps(object: Owned, controller: Owned, kind: ObjectKind): readonly JsonPatchOp[] {
  const refs = object.metadata.ownerReferences ?? [];
  const controllerRef = newControllerRef(controller, kind);
  if (refs.length === 0)
    return [
      { op: 'test', path: REFS, value: null },
      { op: 'add', path: REFS, value: [controllerRef] },
    ];
  const guard = refs.flatMap((r, i): JsonPatchOp[] => [
    { op: 'test', path: `${REFS}/${i}/uid`, value: r.uid },
    { op: 'test', path: `${REFS}/${i}/controller`, value: r.controller ?? null },
  ]);
  const ours = refs.findIndex((r) => r.uid === controller.metadata.uid);
  const write: JsonPatchOp =
    ours >= 0
      ? { op: 'replace', path: `${REFS}/${ours}`, value: controllerRef }
      : { op: 'add', path: `${REFS}/-`, value: controllerRef };
  return [...guard, write];
}

/**
 * releaseOps is ReleasePod's (ReleaseReplicaSet's) patch (GenerateDeleteOwnerRefStrategicMergeBytes removes our ref
 * by uid) as a json patch: each of our refs, last first, is tested to still be at its index and removed.
 */
export function releaseOps(object: Owned, controller: Owned): readonly JsonPatchOp[] {
  const refs = object.metadata.ownerReferences ?? [];
  const uid = controller.metadata.uid;
  const indexes = refs.flatMap((r, i) => (r.uid === uid ? [i] : [])).reverse();
  return indexes.flatMap((i): JsonPatchOp[] => [
    { op: 'test', path: `${REFS}/${i}/uid`, value: uid },
    { op: 'remove', path: `${REFS}/${i}` },
  ]);
}
