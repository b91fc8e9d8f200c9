import type { OwnerReference, Pod, ReplicationController } from '@kcm-bus/k8s/core-v1.ts';
import type { JsonPatchOp } from '@kcm-bus/k8s/json-patch.ts';
import { selectorMatcher } from '@kcm-bus/k8s/labels.ts';
import { controllerOf, isTerminating } from '@kcm-bus/k8s/meta-v1.ts';
import { RC_API_VERSION, RC_KIND } from './replication-controller.ts';

/** ClaimAction is a patch ClaimPods decided on: Adopt an orphan, or Release a pod that no longer matches. */
export type ClaimAction = { readonly type: 'Adopt' | 'Release'; readonly pod: Pod; readonly ops: readonly JsonPatchOp[] };

/**
 * ClaimResult is what claiming decided: the pods the RC owns now (an orphan it adopts counts only once its patch
 * has applied and the pod carries our controllerRef), and the patches to publish.
 */
export type ClaimResult = { readonly claimed: readonly Pod[]; readonly actions: readonly ClaimAction[] };

/**
 * claimPods mirrors PodControllerRefManager.ClaimPods / ClaimObject over the RC's active candidate pods: a pod
 * controlled by someone else is ignored; ours and matching is claimed (even while the RC is being deleted); ours and
 * no longer matching is released unless the RC is being deleted; an orphan is adopted when it matches, is not
 * itself terminating and the RC is not being deleted (canAdopt from the lister's view: see README, "Adoption").
 */
export function claimPods(rc: ReplicationController, pods: readonly Pod[]): ClaimResult {
  const claimed: Pod[] = [];
  const actions: ClaimAction[] = [];
  const deleting = isTerminating(rc.metadata);
  const matches = selectorMatcher(rc.spec.selector);
  for (const pod of pods) {
    const ref = controllerOf(pod.metadata);
    const match = matches(pod.metadata.labels);
    if (ref !== undefined) {
      if (ref.uid !== rc.metadata.uid) continue;
      if (match) claimed.push(pod);
      else if (!deleting) actions.push({ type: 'Release', pod, ops: releaseOps(pod, rc) });
    } else if (match && !deleting && !isTerminating(pod.metadata) && pod.metadata.namespace === rc.metadata.namespace) {
      actions.push({ type: 'Adopt', pod, ops: adoptOps(pod, rc) });
    }
  }
  return { claimed, actions };
}

/** newControllerRef is metav1.NewControllerRef(rc, v1 ReplicationController): controller and blockOwnerDeletion true. */
export function newControllerRef(rc: ReplicationController): OwnerReference {
  const { name, uid } = rc.metadata;
  return { apiVersion: RC_API_VERSION, kind: RC_KIND, name, uid, controller: true, blockOwnerDeletion: true };
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
export function adoptOps(pod: Pod, rc: ReplicationController): readonly JsonPatchOp[] {
  const refs = pod.metadata.ownerReferences ?? [];
  const controllerRef = newControllerRef(rc);
  if (refs.length === 0) return [{ op: 'test', path: REFS, value: null }, { op: 'add', path: REFS, value: [controllerRef] }];
  const guard = refs.flatMap((r, i): JsonPatchOp[] => [
    { op: 'test', path: `${REFS}/${i}/uid`, value: r.uid },
    { op: 'test', path: `${REFS}/${i}/controller`, value: r.controller ?? null },
  ]);
  const ours = refs.findIndex((r) => r.uid === rc.metadata.uid);
  const write: JsonPatchOp = ours >= 0 ? { op: 'replace', path: `${REFS}/${ours}`, value: controllerRef } : { op: 'add', path: `${REFS}/-`, value: controllerRef };
  return [...guard, write];
}

/**
 * releaseOps is ReleasePod's patch (GenerateDeleteOwnerRefStrategicMergeBytes removes our ref by uid) as a json
 * patch: each of our refs, last first, is tested to still be at its index and removed.
 */
export function releaseOps(pod: Pod, rc: ReplicationController): readonly JsonPatchOp[] {
  const refs = pod.metadata.ownerReferences ?? [];
  const indexes = refs.flatMap((r, i) => (r.uid === rc.metadata.uid ? [i] : [])).reverse();
  return indexes.flatMap((i): JsonPatchOp[] => [
    { op: 'test', path: `${REFS}/${i}/uid`, value: rc.metadata.uid },
    { op: 'remove', path: `${REFS}/${i}` },
  ]);
}
