import { type Cluster, type ClusterWatchEvent, newCluster as newKubeCluster } from '@kcm-bus/k8s/cluster.fixture.ts';
import type { Pod, ReplicationController } from '@kcm-bus/k8s/core-v1.ts';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import type { Lister } from '@kcm-bus/runtime/reconcile/reconciler.ts';
import { POD_INDEXERS, RC_INDEXERS } from './rc-lookup.ts';

/** RcKinds are the resources the RC controller's tests hold: pods and ReplicationControllers. */
export type RcKinds = { readonly pods: Pod; readonly replicationcontrollers: ReplicationController };

/** RcCluster is the fake API of the RC controller's tests. */
export type RcCluster = Cluster<RcKinds>;

/** newCluster holds these RCs and pods. */
export function newCluster(rcs: readonly ReplicationController[], pods: readonly Pod[] = []): RcCluster {
  return newKubeCluster<RcKinds>({ pods, replicationcontrollers: rcs });
}

/** listers are the read-only views reconcileRc gets: runtime Stores over the cluster's objects, with the controller's indexes. */
export function listers(c: RcCluster): { rcs: Lister<ReplicationController>; pods: Lister<Pod> } {
  return { rcs: listerOf(c.objects.replicationcontrollers.values(), RC_INDEXERS), pods: listerOf(c.objects.pods.values(), POD_INDEXERS) };
}

/** PodWatchEvent is what the pods topic would carry after a write: the new (or last) pod and the previous one. */
export type PodWatchEvent = Extract<ClusterWatchEvent<RcKinds>, { readonly resource: 'pods' }>;

/** podEvents keeps the pod events of a round's writes, in order (what the pod handlers see). */
export function podEvents(watch: readonly ClusterWatchEvent<RcKinds>[]): PodWatchEvent[] {
  return watch.filter((e): e is PodWatchEvent => e.resource === 'pods');
}
