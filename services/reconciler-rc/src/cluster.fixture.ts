import { type Cluster, type ClusterWatchEvent, newCluster as newKubeCluster } from '@kcm-bus/k8s/cluster.fixture.ts';
import type { ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import type { Pod, ReplicationController } from '@kcm-bus/k8s/core-v1.ts';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import type { Lister } from '@kcm-bus/runtime/controller/index.ts';
import { REPLICATION_CONTROLLERS, type ReplicaSetKind, type ReplicaSetLike } from './replica-set-kind.ts';
import { POD_INDEXERS, SET_INDEXERS } from './set-lookup.ts';

/** SetKinds are the resources the controller's tests hold: pods, ReplicationControllers and ReplicaSets. */
export type SetKinds = {
  readonly pods: Pod;
  readonly replicationcontrollers: ReplicationController;
  readonly replicasets: ReplicaSet;
};

/** SetCluster is the fake API of the controller's tests: its sets (ReplicationControllers or ReplicaSets) and pods. */
export type SetCluster = Cluster<SetKinds>;

/** newCluster holds these sets (RCs or ReplicaSets, by their kind) and pods. */
export function newCluster(sets: readonly ReplicaSetLike[], pods: readonly Pod[] = []): SetCluster {
  const of = (kind: string): ReplicaSetLike[] => sets.filter((s) => (s.kind ?? 'ReplicationController') === kind);
  return newKubeCluster<SetKinds>({
    pods,
    replicationcontrollers: of('ReplicationController') as ReplicationController[],
    replicasets: of('ReplicaSet') as ReplicaSet[],
  });
}

/** listers are the read-only views a sync of `kind` gets: runtime Stores over the cluster's objects, with the controller's indexes. */
export function listers(
  c: SetCluster,
  kind: ReplicaSetKind = REPLICATION_CONTROLLERS,
): { sets: Lister<ReplicaSetLike>; pods: Lister<Pod> } {
  const sets = (kind === REPLICATION_CONTROLLERS ? c.objects.replicationcontrollers : c.objects.replicasets) as Map<
    string,
    ReplicaSetLike
  >;
  return { sets: listerOf(sets.values(), SET_INDEXERS), pods: listerOf(c.objects.pods.values(), POD_INDEXERS) };
}

/** PodWatchEvent is what the pods topic would carry after a write: the new (or last) pod and the previous one. */
export type PodWatchEvent = Extract<ClusterWatchEvent<SetKinds>, { readonly resource: 'pods' }>;

/** podEvents keeps the pod events of a round's writes, in order (what the pod handlers see). */
export function podEvents(watch: readonly ClusterWatchEvent<SetKinds>[]): PodWatchEvent[] {
  return watch.filter((e): e is PodWatchEvent => e.resource === 'pods');
}
