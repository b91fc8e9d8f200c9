import type { OwnerReference, Pod } from '@kcm-bus/k8s/core-v1.ts';
import { controllerOf } from '@kcm-bus/k8s/meta-v1.ts';
import type { Lister } from '@kcm-bus/runtime/controller/index.ts';
import {
  byControllerUID,
  byNamespace,
  byPodController,
  CONTROLLER_UID_INDEX,
  NAMESPACE_INDEX,
  POD_CONTROLLER_INDEX,
  podControllerIndexKey,
  type Indexers,
} from '@kcm-bus/runtime/store/index.ts';
import { podSelects, type ReplicaSetKind, type ReplicaSetLike } from './replica-set-kind.ts';

/**
 * POD_INDEXERS are the pods lister's indexes: by namespace (the pods related sets select) and by controller within the
 * namespace (a set's pods, and a namespace's orphans), as upstream's pod informer has them.
 */
export const POD_INDEXERS: Indexers<Pod> = { [NAMESPACE_INDEX]: byNamespace, [POD_CONTROLLER_INDEX]: byPodController };

/**
 * SET_INDEXERS are the sets lister's indexes: by namespace (rsLister.ReplicaSets(namespace)) and by the UID of the
 * set's own controller (upstream's controllerUIDIndex: a Deployment's ReplicaSets, getReplicaSetsWithSameController).
 */
export const SET_INDEXERS: Indexers<ReplicaSetLike> = {
  [NAMESPACE_INDEX]: byNamespace,
  [CONTROLLER_UID_INDEX]: byControllerUID,
};

/**
 * resolveControllerRef mirrors replica_set.go resolveControllerRef: the set a controllerRef names, found by name in
 * the pod's namespace, only if the kind is ours and the UID matches (a recreated set of the same name is not it).
 */
export function resolveControllerRef(
  kind: ReplicaSetKind,
  namespace: string,
  ref: OwnerReference,
  sets: Lister<ReplicaSetLike>,
): ReplicaSetLike | undefined {
  if (ref.kind !== kind.owner.kind) return undefined;
  const set = sets.get(`${namespace}/${ref.name}`);
  return set !== undefined && set.metadata.uid === ref.uid ? set : undefined;
}

/**
 * getPodControllers mirrors the listers' GetPodReplicaSets / GetPodControllers: the sets of the pod's namespace whose
 * selector matches its labels (podSelects: an invalid, nil or empty selector matches nothing); none for a pod without
 * labels. More than one is a user error upstream only logs; controllerRefs keep it harmless.
 */
export function getPodControllers(
  kind: ReplicaSetKind,
  pod: Pod,
  sets: Lister<ReplicaSetLike>,
): readonly ReplicaSetLike[] {
  const labels = pod.metadata.labels ?? {};
  if (Object.keys(labels).length === 0) return [];
  return sets.byIndex(NAMESPACE_INDEX, pod.metadata.namespace ?? '').filter((set) => podSelects(kind, set, labels));
}

/**
 * filterPodsByOwner mirrors controller.FilterPodsByOwner(…, includeOrphanedPods=true): the pods whose controllerRef
 * names the set (kind, name and UID, in its namespace) plus the orphans of its namespace, two lookups of the
 * podController index: the candidates ClaimPods looks at.
 */
export function filterPodsByOwner(kind: ReplicaSetKind, pods: Lister<Pod>, set: ReplicaSetLike): readonly Pod[] {
  const { name, uid, namespace = '' } = set.metadata;
  const owned = pods.byIndex(
    POD_CONTROLLER_INDEX,
    podControllerIndexKey(namespace, { kind: kind.owner.kind, name, uid }),
  );
  return [...owned, ...pods.byIndex(POD_CONTROLLER_INDEX, namespace)];
}

/**
 * getIndirectlyRelatedPods mirrors replica_set.go: the pods selected by every set that has the same controller owner
 * as this one (getReplicaSetsWithSameController, by the controllerUID index; a set with an invalid selector is
 * skipped), deduplicated by UID; none when the set has no controller (the usual case for an RC). They only feed the
 * co-location rank of getPodsToDelete.
 */
export function getIndirectlyRelatedPods(
  kind: ReplicaSetKind,
  set: ReplicaSetLike,
  sets: Lister<ReplicaSetLike>,
  pods: Lister<Pod>,
): readonly Pod[] {
  const owner = controllerOf(set.metadata);
  if (owner === undefined) return [];
  const seen = new Map<string, Pod>();
  for (const related of sets.byIndex(CONTROLLER_UID_INDEX, owner.uid)) {
    const selector = kind.selector(related);
    if (!('matches' in selector)) continue;
    for (const p of pods
      .byIndex(NAMESPACE_INDEX, related.metadata.namespace ?? '')
      .filter((p) => selector.matches(p.metadata.labels))) {
      if (!seen.has(p.metadata.uid)) seen.set(p.metadata.uid, p);
    }
  }
  return [...seen.values()];
}
