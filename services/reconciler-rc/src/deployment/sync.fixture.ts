import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { type Cluster, newCluster as newKubeCluster } from '@kcm-bus/k8s/cluster.fixture.ts';
import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import { type MutationLog, mutationLog } from '@kcm-bus/k8s/mutation-drafts.ts';
import { converge } from '@kcm-bus/k8s/reconcile.fixture.ts';
import type { Decision } from '@kcm-bus/runtime/controller/index.ts';
import {
  type Mutation,
  type MutationCause,
  type MutationResult,
  validateMutation,
} from '@kcm-bus/runtime/mutation/index.ts';
import { T0 } from './deployment.fixture.ts';
import { CONTROLLER } from './kinds.ts';
import { DEPLOYMENT_INDEXERS, POD_INDEXERS, REPLICA_SET_INDEXERS } from './lookup.ts';
import type { SyncContext } from './sync-context.ts';
import { syncDeployment } from './sync-deployment.ts';
import { DeploymentView } from './view.ts';

/** DeploymentKinds are the resources of the controller's fake API. */
export type DeploymentKinds = {
  readonly deployments: Deployment;
  readonly replicasets: ReplicaSet;
  readonly pods: Pod;
};

/** DeploymentCluster is the fake API of the deployment controller's tests. */
export type DeploymentCluster = Cluster<DeploymentKinds>;

/** newCluster holds these Deployments, ReplicaSets and pods. */
export function newCluster(
  deployments: readonly Deployment[],
  replicasets: readonly ReplicaSet[] = [],
  pods: readonly Pod[] = [],
): DeploymentCluster {
  return newKubeCluster<DeploymentKinds>({ deployments, replicasets, pods });
}

/** SyncOptions vary one sync: its failures, clock, cause and whether its stores are fresh (default: fresh). */
export type SyncOptions = {
  readonly failures?: readonly MutationResult[];
  readonly now?: Date;
  readonly cause?: readonly MutationCause[];
  readonly fresh?: boolean;
};

let offset = 1000;

/** nextCause is a fresh input offset, so consecutive syncs name their mutations apart. */
export function nextCause(): readonly MutationCause[] {
  return [{ topic: 'kcm.watch.deployments', partition: 0, offset: offset++ }];
}

/** sync is upstream's dc.syncDeployment(key) against the cluster, every mutation checked valid. */
export function sync(c: DeploymentCluster, key: string, o: SyncOptions = {}): Decision {
  const result = syncDeployment(key, {
    deployments: listerOf(c.objects.deployments.values(), DEPLOYMENT_INDEXERS),
    replicaSets: listerOf(c.objects.replicasets.values(), REPLICA_SET_INDEXERS),
    pods: listerOf(c.objects.pods.values(), POD_INDEXERS),
    failures: o.failures ?? [],
    now: o.now ?? T0,
    fresh: o.fresh ?? true,
    cause: o.cause ?? nextCause(),
  });
  for (const m of result.mutations) validateMutation(JSON.parse(JSON.stringify(m)));
  return result;
}

/** convergeDeployment is the convergence check (k8s converge) with sync; returns the rounds that wrote. */
export function convergeDeployment(c: DeploymentCluster, key: string, now = T0): number {
  return converge(c, key, (k, failures) => sync(c, k, { failures, now }), { now });
}

/** contextOf is a step's SyncContext over a Deployment and its ReplicaSets (and pods), at `now`. */
export function contextOf(
  d: Deployment,
  rsList: readonly ReplicaSet[],
  pods: readonly Pod[] = [],
  now = T0,
): SyncContext {
  return {
    view: new DeploymentView(d, rsList),
    replicaSets: listerOf(rsList, REPLICA_SET_INDEXERS),
    pods: listerOf(pods, POD_INDEXERS),
    now,
  };
}

/** writesOf are the mutations a step decided on its context's view. */
export function writesOf(s: SyncContext): readonly Mutation[] {
  const log: MutationLog = mutationLog(CONTROLLER, 'default/foo', nextCause(), s.now);
  s.view.publish(log);
  return log.mutations();
}

/** bodyOf is a mutation's body parsed (a Create's or an Update's object). */
export function bodyOf<T>(m: Mutation | undefined): T {
  return JSON.parse(m?.body ?? 'null') as T;
}
