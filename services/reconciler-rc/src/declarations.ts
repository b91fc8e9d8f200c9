import { REPLICASET_CONTROLLER, REPLICATION_CONTROLLER } from '@kcm-bus/catalog/controllers.ts';
import { declared, type Declared } from '@kcm-bus/runtime/controller/index.ts';
import { replicaSetControllerSpec, type SetInputs } from './controller-spec.ts';
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
 * replicationcontroller-controller and replicaset-controller, one implementation on two kinds.
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
];
