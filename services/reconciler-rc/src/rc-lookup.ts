import type { OwnerReference, Pod, ReplicationController } from '@kcm-bus/k8s/core-v1.ts';
import { selectorMatches } from '@kcm-bus/k8s/labels.ts';
import { controllerOf } from '@kcm-bus/k8s/meta-v1.ts';
import type { Lister } from '@kcm-bus/runtime/reconcile/reconciler.ts';
import { byNamespace, byPodController, NAMESPACE_INDEX, POD_CONTROLLER_INDEX, podControllerIndexKey } from '@kcm-bus/runtime/store/index-funcs.ts';
import type { Indexers } from '@kcm-bus/runtime/store/indices.ts';
import { RC_KIND } from './replication-controller.ts';

/**
 * POD_INDEXERS are the pods lister's indexes: by namespace (the pods related RCs select) and by controller within the
 * namespace (an RC's pods, and a namespace's orphans), as upstream's pod informer has them.
 */
export const POD_INDEXERS: Indexers<Pod> = { [NAMESPACE_INDEX]: byNamespace, [POD_CONTROLLER_INDEX]: byPodController };

/** RC_INDEXERS are the RCs lister's indexes: by namespace (upstream's rcLister.ReplicationControllers(namespace)). */
export const RC_INDEXERS: Indexers<ReplicationController> = { [NAMESPACE_INDEX]: byNamespace };

/**
 * resolveControllerRef mirrors replica_set.go resolveControllerRef: the RC a controllerRef names, found by name in
 * the pod's namespace, only if the kind is ours and the UID matches (a recreated RC of the same name is not it).
 */
export function resolveControllerRef(namespace: string, ref: OwnerReference, rcs: Lister<ReplicationController>): ReplicationController | undefined {
  if (ref.kind !== RC_KIND) return undefined;
  const rc = rcs.get(`${namespace}/${ref.name}`);
  return rc !== undefined && rc.metadata.uid === ref.uid ? rc : undefined;
}

/**
 * getPodControllers mirrors the RC lister's GetPodControllers (upstream's getPodReplicaSets): the RCs of the pod's
 * namespace whose selector matches its labels; none for a pod without labels. More than one is a user error
 * upstream only logs; controllerRefs keep it harmless.
 */
export function getPodControllers(pod: Pod, rcs: Lister<ReplicationController>): readonly ReplicationController[] {
  const labels = pod.metadata.labels ?? {};
  if (Object.keys(labels).length === 0) return [];
  return rcs.byIndex(NAMESPACE_INDEX, pod.metadata.namespace ?? '').filter((rc) => selectorMatches(rc.spec.selector, labels));
}

/**
 * filterPodsByOwner mirrors controller.FilterPodsByOwner(…, includeOrphanedPods=true): the pods whose controllerRef
 * names the RC (kind, name and UID, in its namespace) plus the orphans of its namespace, two lookups of the
 * podController index: the candidates ClaimPods looks at.
 */
export function filterPodsByOwner(pods: Lister<Pod>, rc: ReplicationController): readonly Pod[] {
  const { name, uid, namespace = '' } = rc.metadata;
  const owned = pods.byIndex(POD_CONTROLLER_INDEX, podControllerIndexKey(namespace, { kind: RC_KIND, name, uid }));
  return [...owned, ...pods.byIndex(POD_CONTROLLER_INDEX, namespace)];
}

/**
 * getIndirectlyRelatedPods mirrors replica_set.go: the pods selected by every RC that has the same controller owner
 * as this one (getReplicaSetsWithSameController), deduplicated by UID; none when the RC has no controller, which
 * is the usual case for an RC. They only feed the co-location rank of getPodsToDelete.
 */
export function getIndirectlyRelatedPods(rc: ReplicationController, rcs: Lister<ReplicationController>, pods: Lister<Pod>): readonly Pod[] {
  const owner = controllerOf(rc.metadata);
  if (owner === undefined) return [];
  const seen = new Map<string, Pod>();
  for (const related of rcs.list().filter((r) => controllerOf(r.metadata)?.uid === owner.uid)) {
    const inNamespace = pods.byIndex(NAMESPACE_INDEX, related.metadata.namespace ?? '');
    for (const p of inNamespace.filter((p) => selectorMatches(related.spec.selector, p.metadata.labels))) {
      if (!seen.has(p.metadata.uid)) seen.set(p.metadata.uid, p);
    }
  }
  return [...seen.values()];
}
