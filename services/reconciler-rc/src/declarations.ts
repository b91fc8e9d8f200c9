import { declared } from '@kcm-bus/runtime/reconcile/catalog-declaration.ts';
import type { ControllerDeclaration, Inputs } from '@kcm-bus/runtime/reconcile/declaration.ts';
import { replicaSetControllerSpec, type SetInputs } from './controller-spec.ts';
import { PROJECTED_POD_FIELDS, projectPod } from './project-pod.ts';
import { REPLICA_SETS, REPLICATION_CONTROLLERS, type ReplicaSetKind } from './replica-set-kind.ts';
import { POD_INDEXERS, SET_INDEXERS } from './set-lookup.ts';
import { DEFAULT_REPLICA_SET_CONFIG } from './sync-replica-set.ts';

/** replicaSetManager declares upstream's ReplicaSetController for one kind: its catalog part, its pods projected. */
function replicaSetManager(kind: ReplicaSetKind, workqueue: string): ControllerDeclaration<SetInputs> {
  return declared<SetInputs>(kind.controller, workqueue, {
    inputs: {
      pods: { indexers: POD_INDEXERS, project: projectPod, fields: PROJECTED_POD_FIELDS },
      sets: { indexers: SET_INDEXERS },
    },
    spec: (listers) => replicaSetControllerSpec(kind, listers, DEFAULT_REPLICA_SET_CONFIG),
  });
}

/**
 * DECLARATIONS are the controllers reconciler-rc runs, each in its consumer group with its workqueue: upstream's
 * replicationcontroller-controller and replicaset-controller, one implementation on two kinds.
 */
export const DECLARATIONS = [
  replicaSetManager(REPLICATION_CONTROLLERS, 'replicationmanager'),
  replicaSetManager(REPLICA_SETS, 'replicaset'),
] as unknown as readonly ControllerDeclaration<Inputs>[];
