import { applyMutations, type Cluster, failuresOf, newCluster } from '@kcm-bus/k8s/cluster.fixture.ts';
import type { Endpoints, EndpointSubset, Pod, Service, ServiceSpec } from '@kcm-bus/k8s/core-v1.ts';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import { converge } from '@kcm-bus/k8s/reconcile.fixture.ts';
import { type MutationResult, validateMutation } from '@kcm-bus/runtime/mutation/index.ts';
import type { Decision } from '@kcm-bus/runtime/controller/index.ts';
import { byNamespace, NAMESPACE_INDEX } from '@kcm-bus/runtime/store/index.ts';
import { syncService } from './sync-service.ts';
import { TriggerTimeTracker } from './trigger-time-tracker.ts';

/** T0 is the tests' clock. */
export const T0 = new Date('2026-11-23T10:00:00Z');

/** EndpointsKinds are the resources the endpoints controller's tests hold. */
export type EndpointsKinds = { readonly services: Service; readonly pods: Pod; readonly endpoints: Endpoints };

/** IPFamily is a pod's address family in testPod. */
export type IPFamily = 'IPv4' | 'IPv6';

/**
 * testPod mirrors endpoints_controller_test.go testPod: pod<id> labelled foo=bar, ready or not, with nPorts container
 * ports port<j> = 8080+j and one IP per family (IPv4 1.2.3.4 for id 0, IPv6 2000::4).
 */
export function testPod(
  ns: string,
  id: number,
  nPorts: number,
  isReady: boolean,
  families: readonly IPFamily[] = ['IPv4'],
): Pod {
  const ips = families.map((f) =>
    f === 'IPv4' ? `1.2.${3 + Math.floor((4 + id) / 256)}.${(4 + id) % 256}` : `2000::${(4 + id).toString(16)}`,
  );
  return {
    metadata: { namespace: ns, name: `pod${id}`, uid: '', labels: { foo: 'bar' }, resourceVersion: String(id) },
    spec: {
      containers: [
        { name: '', ports: Array.from({ length: nPorts }, (_, j) => ({ name: `port${j}`, containerPort: 8080 + j })) },
      ],
    },
    status: {
      conditions: [{ type: 'Ready', status: isReady ? 'True' : 'False' }],
      podIPs: ips.map((ip) => ({ ip })),
      podIP: ips[0]!,
    },
  };
}

/** addPods mirrors addPods: nPods ready pods then nNotReady not-ready ones (ids continue). */
export function addPods(
  ns: string,
  nPods: number,
  nPorts: number,
  nNotReady = 0,
  families: readonly IPFamily[] = ['IPv4'],
): Pod[] {
  return Array.from({ length: nPods + nNotReady }, (_, i) => testPod(ns, i, nPorts, i < nPods, families));
}

/** newService is Service `name` in ns with this spec (no selector unless given). */
export function newService(
  ns: string,
  name: string,
  spec: ServiceSpec,
  labels?: Readonly<Record<string, string>>,
): Service {
  return { metadata: { namespace: ns, name, uid: `svc-${name}`, ...(labels ? { labels } : {}) }, spec };
}

/** storedEndpoints is an Endpoints object as the lister holds it (resourceVersion 1). */
export function storedEndpoints(
  ns: string,
  name: string,
  subsets: readonly EndpointSubset[] | undefined,
  meta: Partial<Endpoints['metadata']> = {},
): Endpoints {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { namespace: ns, name, uid: `ep-${name}`, resourceVersion: '1', ...meta },
    ...(subsets ? { subsets } : {}),
  };
}

/**
 * EndpointsFixture is one controller against the fake API: the cluster, the controller's trigger-time tracker
 * (kept across syncs, as the controller's is) and a fresh cause per sync.
 */
export type EndpointsFixture = {
  readonly cluster: Cluster<EndpointsKinds>;
  /** sync is syncService(key) on the cluster's current objects; every mutation is checked valid. */
  readonly sync: (key: string, failures?: readonly MutationResult[], now?: Date) => Decision;
  /** write applies a sync's mutations to the cluster, returning the failed results. */
  readonly write: (result: Decision) => MutationResult[];
  /** converge is the convergence check from the current state; returns the rounds that wrote. */
  readonly converge: (key: string) => number;
};

/** endpointsFixture holds these objects. */
export function endpointsFixture(
  objects: Partial<{ readonly [R in keyof EndpointsKinds]: readonly EndpointsKinds[R][] }>,
): EndpointsFixture {
  const cluster = newCluster<EndpointsKinds>({
    services: objects.services ?? [],
    pods: objects.pods ?? [],
    endpoints: objects.endpoints ?? [],
  });
  const tracker = new TriggerTimeTracker();
  let offset = 0;
  const sync = (key: string, failures: readonly MutationResult[] = [], now = T0): Decision => {
    const result = syncService(key, {
      services: listerOf(cluster.objects.services.values(), { [NAMESPACE_INDEX]: byNamespace }),
      pods: listerOf(cluster.objects.pods.values(), { [NAMESPACE_INDEX]: byNamespace }),
      endpoints: listerOf(cluster.objects.endpoints.values()),
      tracker,
      failures,
      now,
      cause: [{ topic: 'kcm.watch.pods', partition: 0, offset: offset++ }],
      attempt: 0,
      fresh: true,
      expectations: { satisfied: true, pendingCreates: [], pendingDeletes: [] },
    });
    for (const m of result.mutations) validateMutation(JSON.parse(JSON.stringify(m)));
    return result;
  };
  const write = (result: Decision): MutationResult[] =>
    failuresOf(applyMutations(cluster, result.mutations, T0).results);
  return {
    cluster,
    sync,
    write,
    converge: (key) => converge(cluster, key, (k, failures) => sync(k, failures), { now: T0 }),
  };
}

/** written is the Endpoints body a sync's single Create or Update carries (undefined: no such write). */
export function written(result: Decision): Endpoints | undefined {
  const m = result.mutations.find((x) => x.verb === 'Create' || x.verb === 'Update');
  return m && (JSON.parse(m.body!) as Endpoints);
}

/** addressCounts sums the ready and not-ready addresses of some subsets. */
export function addressCounts(subsets: readonly EndpointSubset[] | undefined): { ready: number; notReady: number } {
  const s = subsets ?? [];
  return {
    ready: s.reduce((n, x) => n + (x.addresses ?? []).length, 0),
    notReady: s.reduce((n, x) => n + (x.notReadyAddresses ?? []).length, 0),
  };
}
