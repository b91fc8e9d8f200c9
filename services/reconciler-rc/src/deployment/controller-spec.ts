import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import type { ControllerSpec, HandlerOutput, Listers, ObjectEvent } from '@kcm-bus/runtime/controller/index.ts';
import { onPodEvent, onReplicaSetEvent } from './handlers.ts';
import { syncDeployment } from './sync-deployment.ts';

/** DeploymentInputs are the objects the deployment controller reads, co-partitioned by namespace. */
export type DeploymentInputs = {
  readonly deployments: Deployment;
  readonly replicaSets: ReplicaSet;
  readonly pods: Pod;
};

/**
 * MAX_RETRIES is deployment_controller.go maxRetries: a Deployment failing 15 syncs in a row is dropped out of the
 * queue until its next event.
 */
export const MAX_RETRIES = 15;

/**
 * deploymentControllerSpec joins the pure pieces into upstream's deployment controller: the handlers
 * (addDeployment/updateDeployment/deleteDeployment, addReplicaSet/updateReplicaSet/deleteReplicaSet, deletePod)
 * choose the keys, syncDeployment syncs one. No expectations, as upstream's keeps none.
 */
export function deploymentControllerSpec(listers: Listers<DeploymentInputs>): ControllerSpec<DeploymentInputs> {
  const { deployments, replicaSets, pods } = listers;
  return {
    handlers: {
      deployments: deploymentEvent,
      replicaSets: (e) => ({ enqueue: onReplicaSetEvent(e.type, e.object, e.old, deployments) }),
      pods: (e) => ({ enqueue: onPodEvent(e.type, e.object, replicaSets, deployments) }),
    },
    reconcile: (key, input) => syncDeployment(key, { ...input, deployments, replicaSets, pods }),
    maxRetries: MAX_RETRIES,
  };
}

/**
 * deploymentEvent mirrors addDeployment / updateDeployment / deleteDeployment, which enqueue the Deployment on every
 * event. A new Deployment syncs at its cut, once the ReplicaSets and pods topics are known complete up to when the
 * watcher saw it: it then adopts the ReplicaSets made for it before (an orphaned ReplicaSet of a Deployment deleted
 * and recreated under the same name, one created by upstream's controller) instead of creating a duplicate, as
 * upstream's synced informers let it.
 */
export function deploymentEvent(event: ObjectEvent<Deployment>): HandlerOutput {
  const created = event.type === 'Applied' && event.old === undefined;
  return created ? { enqueue: [], enqueueAtCut: [event.key] } : { enqueue: [event.key] };
}
