import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import type { OwnerReference, Pod } from '@kcm-bus/k8s/core-v1.ts';
import { labelSelectorMatcher } from '@kcm-bus/k8s/label-selector.ts';
import { controllerOf } from '@kcm-bus/k8s/meta-v1.ts';
import type { Lister } from '@kcm-bus/runtime/controller/index.ts';
import {
  byControllerUID,
  byNamespace,
  CONTROLLER_UID_INDEX,
  type Indexers,
  NAMESPACE_INDEX,
} from '@kcm-bus/runtime/store/index.ts';
import { DEPLOYMENT_KIND, REPLICA_SET_KIND } from './kinds.ts';

/** DEPLOYMENT_INDEXERS are the Deployments lister's index: by namespace (dLister.Deployments(namespace).List). */
export const DEPLOYMENT_INDEXERS: Indexers<Deployment> = { [NAMESPACE_INDEX]: byNamespace };

/**
 * REPLICA_SET_INDEXERS are the ReplicaSets lister's indexes: by namespace (the orphans a Deployment may adopt) and by
 * the UID of their controller (a Deployment's own ReplicaSets).
 */
export const REPLICA_SET_INDEXERS: Indexers<ReplicaSet> = {
  [NAMESPACE_INDEX]: byNamespace,
  [CONTROLLER_UID_INDEX]: byControllerUID,
};

/** POD_INDEXERS are the pods lister's index: by the UID of their controller (a ReplicaSet's pods, FilterPodsByOwner). */
export const POD_INDEXERS: Indexers<Pod> = { [CONTROLLER_UID_INDEX]: byControllerUID };

/**
 * POD_FIELDS are all the controller reads of a pod, the pods input's `fields`: its identity and controller (deletePod,
 * the index) and its phase (oldPodsRunning). Records are decoded through a reader schema of these alone.
 */
export const POD_FIELDS: readonly string[] = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'metadata.ownerReferences',
  'status.phase',
];

/**
 * resolveControllerRef mirrors deployment_controller.go resolveControllerRef: the Deployment a controllerRef names,
 * found by name in the namespace, only if the kind is Deployment and the UID matches.
 */
export function resolveControllerRef(
  namespace: string,
  ref: OwnerReference,
  deployments: Lister<Deployment>,
): Deployment | undefined {
  if (ref.kind !== DEPLOYMENT_KIND.kind) return undefined;
  const d = deployments.get(`${namespace}/${ref.name}`);
  return d?.metadata.uid === ref.uid ? d : undefined;
}

/**
 * getDeploymentsForReplicaSet mirrors deploymentutil.GetDeploymentsForReplicaSet: the Deployments of the ReplicaSet's
 * namespace whose selector matches its labels; an invalid, nil or empty selector matches nothing, and a ReplicaSet
 * without labels matches no Deployment. More than one is a user error upstream only logs.
 */
export function getDeploymentsForReplicaSet(rs: ReplicaSet, deployments: Lister<Deployment>): readonly Deployment[] {
  const labels = rs.metadata.labels ?? {};
  if (Object.keys(labels).length === 0) return [];
  return deployments.byIndex(NAMESPACE_INDEX, rs.metadata.namespace ?? '').filter((d) => {
    const s = d.spec.selector;
    const empty = Object.keys(s?.matchLabels ?? {}).length === 0 && (s?.matchExpressions ?? []).length === 0;
    const selector = labelSelectorMatcher(s);
    return !empty && 'matches' in selector && selector.matches(labels);
  });
}

/**
 * getDeploymentForPod mirrors deployment_controller.go getDeploymentForPod: the Deployment controlling the ReplicaSet
 * controlling the pod, each reference resolved by name and UID.
 */
export function getDeploymentForPod(
  pod: Pod,
  replicaSets: Lister<ReplicaSet>,
  deployments: Lister<Deployment>,
): Deployment | undefined {
  const ref = controllerOf(pod.metadata);
  if (ref === undefined || ref.kind !== REPLICA_SET_KIND.kind) return undefined;
  const namespace = pod.metadata.namespace ?? '';
  const rs = replicaSets.get(`${namespace}/${ref.name}`);
  if (rs === undefined || rs.metadata.uid !== ref.uid) return undefined;
  const rsRef = controllerOf(rs.metadata);
  return rsRef === undefined ? undefined : resolveControllerRef(namespace, rsRef, deployments);
}
