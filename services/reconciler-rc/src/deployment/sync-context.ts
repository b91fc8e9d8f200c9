import type { ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import type { Lister } from '@kcm-bus/runtime/controller/index.ts';
import type { DeploymentView } from './view.ts';

/**
 * SyncContext is what the steps of one syncDeployment work with (upstream's DeploymentController and its `d`): the
 * local view they read and write, the listers (getNewReplicaSet reads a ReplicaSet it could not create; a
 * Recreate rollout reads the pods), and the sync's clock.
 */
export type SyncContext = {
  readonly view: DeploymentView;
  readonly replicaSets: Lister<ReplicaSet>;
  readonly pods: Lister<Pod>;
  readonly now: Date;
};

/**
 * SyncError is upstream's `return err` from a step: the sync ends there, the writes decided before it are
 * published, and the key is requeued rate-limited.
 */
export class SyncError extends Error {}

/** Requeue is when a step wants the Deployment synced again (requeueStuckDeployment), if at all. */
export type Requeue = number | undefined;
