import type { OwnerReference, Pod, ReplicationController } from '@kcm-bus/k8s/core-v1.ts';
import { selectorMatches } from '@kcm-bus/k8s/labels.ts';
import { controllerOf } from '@kcm-bus/k8s/meta-v1.ts';
import type { Lister } from '@kcm-bus/runtime/reconcile/reconciler.ts';
import { byControllerUID, byNamespace, CONTROLLER_UID_INDEX, NAMESPACE_INDEX } from '@kcm-bus/runtime/store/index-funcs.ts';
import type { Indexers } from '@kcm-bus/runtime/store/indices.ts';
import { RC_KIND } from './replication-controller.ts';

/** POD_INDEXERS are the pods lister's indexes: by namespace (the orphans of one) and by controller UID (an RC's pods). */
export const POD_INDEXERS: Indexers<Pod> = { [NAMESPACE_INDEX]: byNamespace, [CONTROLLER_UID_INDEX]: byControllerUID };

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
 * filterPodsByOwner mirrors controller.FilterPodsByOwner(…, includeOrphanedPods=true): the pods the RC controls
 * (index controllerUID) plus every orphan of its namespace (index namespace), the candidates ClaimPods looks at.
 */
export function filterPodsByOwner(pods: Lister<Pod>, rc: ReplicationController): readonly Pod[] {
  const { uid, namespace = '' } = rc.metadata;
  const owned = pods.byIndex(CONTROLLER_UID_INDEX, uid).filter((p) => controllerOf(p.metadata)?.uid === uid && p.metadata.namespace === namespace);
  const orphans = pods.byIndex(NAMESPACE_INDEX, namespace).filter((p) => controllerOf(p.metadata) === undefined);
  return [...owned, ...orphans];
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
