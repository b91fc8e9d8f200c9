import { DEPLOYMENT_CONTROLLER, REPLICASET_CONTROLLER, REPLICATION_CONTROLLER } from '@kcm-bus/catalog/controllers.ts';
import { declared, type Declared } from '@kcm-bus/runtime/controller/index.ts';
import { replicaSetControllerSpec, type SetInputs } from './controller-spec.ts';
import { deploymentControllerSpec, type DeploymentInputs } from './deployment/controller-spec.ts';
import {
  DEPLOYMENT_INDEXERS,
  POD_FIELDS,
  POD_INDEXERS as DEPLOYMENT_POD_INDEXERS,
  REPLICA_SET_INDEXERS,
} from './deployment/lookup.ts';
import { PROJECTED_POD_FIELDS, projectPod } from './project-pod.ts';
import { REPLICA_SETS, REPLICATION_CONTROLLERS } from './replica-set-kind.ts';
import { POD_INDEXERS, SET_INDEXERS } from './set-lookup.ts';
import { DEFAULT_REPLICA_SET_CONFIG } from './sync-replica-set.ts';

/** INPUTS are both managers' input options: their pods projected to the fields they read, their sets indexed. */
const INPUTS = {
  pods: { indexers: POD_INDEXERS, project: projectPod, fields: PROJECTED_POD_FIELDS },
  sets: { indexers: SET_INDEXERS },
};

/**
 * DECLARATIONS are the controllers reconciler-rc runs, each in its consumer group with its workqueue: upstream's
 * replicationcontroller-controller and replicaset-controller, one implementation on two kinds, and its
 * deployment-controller (its pods decoded to the few fields it reads, its ReplicaSets whole: it writes them back).
 */
export const DECLARATIONS: readonly Declared[] = [
  declared(
    REPLICATION_CONTROLLER,
    'replicationmanager',
  )<SetInputs>({
    inputs: INPUTS,
    spec: (listers) => replicaSetControllerSpec(REPLICATION_CONTROLLERS, listers, DEFAULT_REPLICA_SET_CONFIG),
  }),
  declared(
    REPLICASET_CONTROLLER,
    'replicaset',
  )<SetInputs>({
    inputs: INPUTS,
    spec: (listers) => replicaSetControllerSpec(REPLICA_SETS, listers, DEFAULT_REPLICA_SET_CONFIG),
  }),
  declared(
    DEPLOYMENT_CONTROLLER,
    'deployment',
  )<DeploymentInputs>({
    inputs: {
      deployments: { indexers: DEPLOYMENT_INDEXERS },
      replicaSets: { indexers: REPLICA_SET_INDEXERS },
      pods: { indexers: DEPLOYMENT_POD_INDEXERS, fields: POD_FIELDS },
    },
    spec: deploymentControllerSpec,
  }),
];
