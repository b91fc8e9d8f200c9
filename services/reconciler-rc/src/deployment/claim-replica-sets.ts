import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import type { LabelsMatcher } from '@kcm-bus/k8s/labels.ts';
import { controllerOf } from '@kcm-bus/k8s/meta-v1.ts';
import type { Lister } from '@kcm-bus/runtime/controller/index.ts';
import { CONTROLLER_UID_INDEX, NAMESPACE_INDEX } from '@kcm-bus/runtime/store/index.ts';
import { claimObjects, type ClaimResult } from '../claim-objects.ts';
import { DEPLOYMENT_KIND } from './kinds.ts';

/**
 * getReplicaSetsForDeployment mirrors deployment_controller.go getReplicaSetsForDeployment: ClaimReplicaSets over
 * the ReplicaSets the Deployment may own (those it controls, found by the controllerUID index, and the orphans of
 * its namespace: upstream lists the whole namespace, whose other ReplicaSets ClaimObject ignores). It adopts
 * matching orphans and releases its ReplicaSets that no longer match.
 */
export function getReplicaSetsForDeployment(
  d: Deployment,
  matches: LabelsMatcher,
  replicaSets: Lister<ReplicaSet>,
): ClaimResult<ReplicaSet> {
  const owned = replicaSets.byIndex(CONTROLLER_UID_INDEX, d.metadata.uid);
  const orphans = replicaSets
    .byIndex(NAMESPACE_INDEX, d.metadata.namespace ?? '')
    .filter((rs) => controllerOf(rs.metadata) === undefined);
  return claimObjects(d, DEPLOYMENT_KIND, matches, [...owned, ...orphans]);
}
