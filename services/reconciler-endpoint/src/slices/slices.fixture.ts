import type { Node } from '@kcm-bus/k8s/node-v1.ts';
import assert from 'node:assert/strict';
import { applyMutations, failuresOf, newCluster } from '@kcm-bus/k8s/cluster.fixture.ts';
import type { Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import type { AddressType, Endpoint, EndpointPort, EndpointSlice } from '@kcm-bus/k8s/discovery-v1.ts';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import { type MutationDraft, mutationLog } from '@kcm-bus/k8s/mutation-drafts.ts';
import { type Mutation, type MutationResult, validateMutation } from '@kcm-bus/runtime/mutation/index.ts';
import { CONTROLLER_NAME, DEFAULT_MAX_ENDPOINTS_PER_SLICE } from './endpointslice-controller.ts';
import { podToEndpoint } from './pod-to-endpoint.ts';
import { reconcileSlices, type ReconcileSlicesInput, type ReconcileSlicesResult } from './reconcile-slices.ts';
import type { EndpointMeta } from './slice-meta.ts';
import { servicePortTotals, type SliceMetrics } from './slice-metrics.ts';

/** T0 is the tests' clock. */
export const T0 = new Date('2026-11-23T10:00:00Z');

/**
 * newPod mirrors utils_test.go newPod: pod<n> labelled foo=bar on node-1, Ready or not, terminating or not, with
 * one IP. Upstream's IP is 1.2.3.<4+n>, which stops being an IP past n = 251; ours carries on into 1.2.4.x.
 */
export function newPod(n: number, namespace: string, ready: boolean, terminating = false): Pod {
  const ip = `1.2.${3 + Math.floor((4 + n) / 256)}.${(4 + n) % 256}`;
  return {
    metadata: {
      namespace,
      name: `pod${n}`,
      uid: '',
      labels: { foo: 'bar' },
      resourceVersion: String(n),
      ...(terminating ? { deletionTimestamp: T0.toISOString() } : {}),
    },
    spec: { containers: [{ name: 'container-1' }], nodeName: 'node-1' },
    status: { podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

/** pods is newPod for n in [from, to), every third (n % 3 == 0) not ready, as upstream's loops make them. */
export function pods(namespace: string, from: number, to: number): Pod[] {
  return Array.from({ length: to - from }, (_, i) => newPod(from + i, namespace, (from + i) % 3 !== 0));
}

/**
 * newServiceAndEndpointMeta mirrors utils_test.go: Service `name` (uid `<ns>-<name>`) selecting foo=bar, one TCP port
 * named after it with targetPort 80, single-stack IPv4; and the meta of its slices.
 */
export function newServiceAndEndpointMeta(
  name: string,
  namespace: string,
): { readonly service: Service; readonly meta: EndpointMeta } {
  const service: Service = {
    metadata: { name, namespace, uid: `${namespace}-${name}` },
    spec: {
      ports: [{ name, port: 0, targetPort: 80, protocol: 'TCP' }],
      selector: { foo: 'bar' },
      ipFamilies: ['IPv4'],
    },
  };
  const ports: EndpointPort[] = [{ name, port: 80, protocol: 'TCP' }];
  return { service, meta: { ports, addressType: 'IPv4' } };
}

/** newEmptyEndpointSlice mirrors utils_test.go: slice `<service>-<n>` of the meta, owned by the Service, no labels, stored at resourceVersion 1. */
export function newEmptyEndpointSlice(
  n: number,
  namespace: string,
  meta: EndpointMeta,
  service: Service,
  endpoints: readonly Endpoint[] = [],
): EndpointSlice {
  const name = `${service.metadata.name}-${n}`;
  const ownerReferences = [
    {
      apiVersion: 'v1',
      kind: 'Service',
      name: service.metadata.name,
      uid: service.metadata.uid,
      controller: true,
      blockOwnerDeletion: true,
    },
  ];
  return {
    metadata: { name, namespace, uid: `uid-${name}`, resourceVersion: '1', ownerReferences },
    addressType: meta.addressType,
    ports: meta.ports,
    endpoints,
  };
}

/** endpointsOf is podToEndpoint of each pod on an unknown node (upstream's `&corev1.Node{}`) for an IPv4 slice. */
export function endpointsOf(service: Service, podList: readonly Pod[], addressType: AddressType = 'IPv4'): Endpoint[] {
  return podList.map((p) => podToEndpoint(p, undefined, service, addressType));
}

/** newNode is a node, optionally in a zone, ready with this allocatable CPU unless told otherwise. */
export function newNode(name: string, zone?: string, cpu?: string, ready = true): Node {
  return {
    metadata: {
      name,
      uid: `node-${name}`,
      ...(zone !== undefined ? { labels: { 'topology.kubernetes.io/zone': zone } } : {}),
    },
    status: {
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
      ...(cpu !== undefined ? { allocatable: { cpu } } : {}),
    },
  };
}

/** SliceWorld is what a reconcile test starts from (reconcileHelper's arguments and the reconciler's nodes and options). */
export type SliceWorld = Partial<Omit<ReconcileSlicesInput, 'existingSlices' | 'nodes'>> & {
  readonly service: Service;
  readonly slices?: readonly EndpointSlice[];
  readonly nodes?: readonly Node[];
};

/** ReconcileFixture is Reconciler.Reconcile against a fake API holding the slices (upstream's fake clientset). */
export type ReconcileFixture = {
  /** reconcile runs once on the stored slices (with the world changed as given), writes its drafts (all must apply) and returns them as mutations. */
  readonly reconcile: (
    change?: Partial<SliceWorld>,
  ) => ReconcileSlicesResult & { readonly mutations: readonly Mutation[] };
  /** slices lists the stored slices by name. */
  readonly slices: () => EndpointSlice[];
  /**
   * converged is the convergence check: a reconcile of the stored slices writes nothing and records only the events
   * named (none by default; upstream records a persistent topology warning on every sync).
   */
  readonly converged: (events?: readonly string[]) => void;
};

/** reconcileFixture starts a fake API with the world's slices; the Service's topology cache entry is kept across reconciles. */
export function reconcileFixture(world: SliceWorld): ReconcileFixture {
  const cluster = newCluster<{ endpointslices: EndpointSlice }>({ endpointslices: world.slices ?? [] });
  let current: SliceWorld = world;
  let topology = world.topology;
  let offset = 0;
  const slices = (): EndpointSlice[] =>
    [...cluster.objects.endpointslices.values()].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  const run = (): ReconcileSlicesResult =>
    reconcileSlices({
      service: current.service,
      pods: current.pods ?? [],
      existingSlices: slices(),
      nodes: listerOf(current.nodes ?? [newNode('node-1')]),
      triggerTime: current.triggerTime ?? T0.getTime(),
      maxEndpointsPerSlice: current.maxEndpointsPerSlice ?? DEFAULT_MAX_ENDPOINTS_PER_SLICE,
      zoneRatios: current.zoneRatios,
      topology,
    });
  const reconcile = (change: Partial<SliceWorld> = {}): ReconcileSlicesResult & { mutations: readonly Mutation[] } => {
    current = { ...current, ...change };
    const result = run();
    const mutations = asMutations(
      [...result.creates, ...result.updates, ...result.deletes, ...result.events],
      offset++,
    );
    assert.deepEqual(failuresOf(applyMutations(cluster, mutations, T0).results), []);
    topology = result.topology;
    return { ...result, mutations };
  };
  const converged = (events: readonly string[] = []): void => {
    const again = run();
    assert.deepEqual(
      [again.creates, again.updates, again.deletes].map((l) => l.length),
      [0, 0, 0],
      'a second reconcile writes nothing',
    );
    assert.deepEqual(
      again.events.map((e) => e.event?.reason),
      events,
    );
  };
  return { reconcile, slices, converged };
}

/** asMutations gives drafts ids as one sync would (each checked valid as the writer checks it). */
export function asMutations(
  drafts: readonly MutationDraft[],
  offset: number,
  failures: readonly MutationResult[] = [],
): Mutation[] {
  const log = mutationLog(
    CONTROLLER_NAME,
    'test/svc',
    [{ topic: 'kcm.watch.pods', partition: 0, offset }],
    T0,
    failures.length,
  );
  for (const d of drafts) {
    const m = log.push(d);
    const checked = validateMutation(JSON.parse(JSON.stringify(m)));
    assert.ok(!('error' in checked), `invalid mutation: ${JSON.stringify(checked)}`);
  }
  return [...log.mutations()];
}

/** lengths is expectUnorderedSlicesWithLengths' view: the slices' endpoint counts, sorted. */
export function lengths(slices: readonly EndpointSlice[]): number[] {
  return slices.map((s) => (s.endpoints ?? []).length).sort((a, b) => a - b);
}

/** bodyOf is the slice a Create or Update draft carries. */
export function bodyOf(m: Pick<MutationDraft, 'body'>): EndpointSlice {
  return JSON.parse(m.body!) as EndpointSlice;
}

/**
 * MetricsView is reconciler_test.go's expectedMetrics for one sync: the gauges of the Service's last service port
 * cache, the histograms' sums and the counters.
 */
export type MetricsView = {
  readonly desiredSlices: number;
  readonly actualSlices: number;
  readonly desiredEndpoints: number;
  readonly addedPerSync: number;
  readonly removedPerSync: number;
  readonly numCreated: number;
  readonly numUpdated: number;
  readonly numDeleted: number;
  readonly slicesChangedPerSync: number;
  readonly slicesChangedPerSyncTopology: number;
  readonly slicesChangedPerSyncTrafficDist: number;
};

/** metricsView reads a sync's observations as upstream's expectMetrics reads its registry after one sync. */
export function metricsView(m: SliceMetrics, maxEndpointsPerSlice = DEFAULT_MAX_ENDPOINTS_PER_SLICE): MetricsView {
  const last = m.servicePortCaches.at(-1);
  const totals =
    last === undefined
      ? { desiredSlices: 0, actualSlices: 0, endpoints: 0 }
      : servicePortTotals(last, maxEndpointsPerSlice);
  const changed = (topology: string, td: (t: string) => boolean): number =>
    m.slicesChangedPerSync
      .filter((c) => c.topology === topology && td(c.trafficDistribution))
      .reduce((n, c) => n + c.slices, 0);
  const sum = (l: readonly number[]): number => l.reduce((a, b) => a + b, 0);
  return {
    desiredSlices: totals.desiredSlices,
    actualSlices: totals.actualSlices,
    desiredEndpoints: totals.endpoints,
    addedPerSync: sum(m.endpointsAddedPerSync),
    removedPerSync: sum(m.endpointsRemovedPerSync),
    numCreated: m.changes.create,
    numUpdated: m.changes.update,
    numDeleted: m.changes.delete,
    slicesChangedPerSync: changed('Disabled', (t) => t === ''),
    slicesChangedPerSyncTopology: changed('Auto', (t) => t === ''),
    slicesChangedPerSyncTrafficDist: changed('Disabled', (t) => t !== ''),
  };
}

/** expectMetrics asserts a sync's metricsView, the fields not given expected 0 (upstream's expectedMetrics zero values). */
export function expectMetrics(m: SliceMetrics, want: Partial<MetricsView>, maxEndpointsPerSlice?: number): void {
  const zero: MetricsView = {
    desiredSlices: 0,
    actualSlices: 0,
    desiredEndpoints: 0,
    addedPerSync: 0,
    removedPerSync: 0,
    numCreated: 0,
    numUpdated: 0,
    numDeleted: 0,
    slicesChangedPerSync: 0,
    slicesChangedPerSyncTopology: 0,
    slicesChangedPerSyncTrafficDist: 0,
  };
  assert.deepEqual(metricsView(m, maxEndpointsPerSlice), { ...zero, ...want });
}
