import type { Node } from '@kcm-bus/k8s/node-v1.ts';
import { applyMutations, type Cluster, failuresOf, newCluster } from '@kcm-bus/k8s/cluster.fixture.ts';
import type { Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import type { EndpointSlice } from '@kcm-bus/k8s/discovery-v1.ts';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import { converge } from '@kcm-bus/k8s/reconcile.fixture.ts';
import { type MutationResult, validateMutation } from '@kcm-bus/runtime/mutation/index.ts';
import { byNamespace, NAMESPACE_INDEX } from '@kcm-bus/runtime/store/index.ts';
import { TriggerTimeTracker } from '../trigger-time-tracker.ts';
import { byServiceName, DEFAULT_MAX_ENDPOINTS_PER_SLICE, SERVICE_NAME_INDEX } from './endpointslice-controller.ts';
import { T0 } from './slices.fixture.ts';
import { type SliceSyncResult, syncEndpointSlices } from './sync-endpoint-slices.ts';
import type { ServiceTopologyHints } from './topology-cache.ts';

/** SliceKinds are the resources the EndpointSlice controller's sync tests hold. */
export type SliceKinds = {
  readonly services: Service;
  readonly pods: Pod;
  readonly nodes: Node;
  readonly endpointslices: EndpointSlice;
};

/**
 * SyncFixture is one controller against the fake API (endpointslice_controller_test.go newController): the cluster,
 * the member's memory (trigger-time tracker, topology cache entries) kept across syncs, and a fresh cause per sync.
 */
export type SyncFixture = {
  readonly cluster: Cluster<SliceKinds>;
  /** sync is syncService(key) on the cluster's current objects; every mutation is checked valid. */
  readonly sync: (key: string, failures?: readonly MutationResult[]) => SliceSyncResult;
  /** write applies a sync's mutations to the cluster, returning the failed results. */
  readonly write: (result: SliceSyncResult) => MutationResult[];
  /** converge is the convergence check from the current state; returns the rounds that wrote. */
  readonly converge: (key: string) => number;
  /** slices lists the stored slices, by name. */
  readonly slices: () => EndpointSlice[];
};

/** syncFixture holds these objects; node-1 exists unless nodes are given (newController(t, []string{"node-1"}, 0)). */
export function syncFixture(
  objects: Partial<{ readonly [R in keyof SliceKinds]: readonly SliceKinds[R][] }>,
  maxEndpointsPerSlice = DEFAULT_MAX_ENDPOINTS_PER_SLICE,
): SyncFixture {
  const nodes = objects.nodes ?? [{ metadata: { name: 'node-1', uid: 'node-1' } }];
  const cluster = newCluster<SliceKinds>({
    services: objects.services ?? [],
    pods: objects.pods ?? [],
    nodes,
    endpointslices: objects.endpointslices ?? [],
  });
  const tracker = new TriggerTimeTracker();
  const topology = new Map<string, ServiceTopologyHints>();
  let offset = 0;
  const sync = (key: string, failures: readonly MutationResult[] = []): SliceSyncResult => {
    const result = syncEndpointSlices(key, {
      services: listerOf(cluster.objects.services.values()),
      pods: listerOf(cluster.objects.pods.values(), { [NAMESPACE_INDEX]: byNamespace }),
      endpointSlices: listerOf(cluster.objects.endpointslices.values(), { [SERVICE_NAME_INDEX]: byServiceName }),
      nodes: listerOf(cluster.objects.nodes.values()),
      tracker,
      topology: topology.get(key),
      maxEndpointsPerSlice,
      failures,
      now: T0,
      attempt: 0,
      fresh: true,
      cause: [{ topic: 'kcm.watch.pods', partition: 0, offset: offset++ }],
      expectations: { satisfied: true, pendingCreates: [], pendingDeletes: [] },
    });
    for (const m of result.mutations)
      if ('error' in validateMutation(JSON.parse(JSON.stringify(m))))
        throw new Error(`invalid mutation ${JSON.stringify(m)}`);
    if (result.topology === undefined) topology.delete(key);
    else topology.set(key, result.topology);
    return result;
  };
  const write = (result: SliceSyncResult): MutationResult[] =>
    failuresOf(applyMutations(cluster, result.mutations, T0).results);
  const slices = (): EndpointSlice[] =>
    [...cluster.objects.endpointslices.values()].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  return {
    cluster,
    sync,
    write,
    slices,
    converge: (key) => converge(cluster, key, (k, failures) => sync(k, failures), { now: T0 }),
  };
}

/** createService mirrors endpointslice_controller_test.go createService: selector foo=bar, one port 80, IPv4, created at creationTimestamp. */
export function createService(namespace: string, name: string, creationTimestamp = '2026-11-23T09:00:00Z'): Service {
  return {
    metadata: { name, namespace, uid: `${namespace}-${name}`, creationTimestamp },
    spec: { ports: [{ port: 0, targetPort: 80 }], selector: { foo: 'bar' }, ipFamilies: ['IPv4'] },
  };
}
