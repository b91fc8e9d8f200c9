import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import type { AddressType, EndpointSlice } from '@kcm-bus/k8s/discovery-v1.ts';
import { finalize } from './finalize.ts';
import { getSliceToFill } from './reconcile-port-mapping.ts';
import { servicePortTotals } from './slice-metrics.ts';
import {
  bodyOf,
  endpointsOf,
  expectMetrics,
  lengths,
  newEmptyEndpointSlice,
  newNode,
  newPod,
  newServiceAndEndpointMeta,
  pods,
  reconcileFixture,
  T0,
} from './slices.fixture.ts';

const { service: svc, meta } = newServiceAndEndpointMeta('foo', 'test');
const spec = (s: Service, change: Partial<NonNullable<Service['spec']>>): Service => ({
  ...s,
  spec: { ...s.spec, ...change },
});
const verbs = (r: { mutations: readonly { verb: string }[] }): string[] => r.mutations.map((m) => m.verb);
const notReady = (p: Pod): Pod => ({ ...p, status: { ...p.status, conditions: [{ type: 'Ready', status: 'False' }] } });

describe('Reconciler.Reconcile: packing (reconciler_test.go)', () => {
  it('given slices of 80 and 20 both changing and 15 new pods, then both updated and the new ones in the fuller (TestReconcileEndpointSlicesUpdatePacking)', () => {
    const first = Array.from({ length: 80 }, (_, i) => newPod(i, 'test', true));
    const second = Array.from({ length: 20 }, (_, i) => newPod(100 + i, 'test', true));
    const slices = [
      newEmptyEndpointSlice(1, 'test', meta, svc, endpointsOf(svc, first)),
      newEmptyEndpointSlice(2, 'test', meta, svc, endpointsOf(svc, second)),
    ];
    const changed = [...first, ...second].map((p, i) => (i % 10 === 0 ? notReady(p) : p));
    const added = Array.from({ length: 15 }, (_, i) => newPod(200 + i, 'test', true));
    const f = reconcileFixture({ service: svc, pods: [...changed, ...added], slices });
    const r = f.reconcile();
    assert.deepEqual(verbs(r), ['Update', 'Update']);
    assert.deepEqual(lengths(f.slices()), [20, 95]);
    expectMetrics(r.metrics, {
      desiredSlices: 2,
      actualSlices: 2,
      desiredEndpoints: 115,
      addedPerSync: 15,
      numUpdated: 2,
      slicesChangedPerSync: 2,
    });
    f.converged();
  });

  it('given slices of the deprecated IP address type, then they are deleted and IPv4 slices packed anew (TestReconcileEndpointSlicesReplaceDeprecated)', () => {
    const deprecated = { ...meta, addressType: 'IP' as AddressType };
    const first = Array.from({ length: 80 }, (_, i) => newPod(i, 'test', true));
    const second = Array.from({ length: 50 }, (_, i) => newPod(100 + i, 'test', true));
    const slices = [
      newEmptyEndpointSlice(1, 'test', deprecated, svc, endpointsOf(svc, first)),
      newEmptyEndpointSlice(2, 'test', deprecated, svc, endpointsOf(svc, second)),
    ];
    const f = reconcileFixture({ service: svc, pods: [...first, ...second], slices });
    assert.deepEqual(verbs(f.reconcile()), ['Create', 'Create', 'Delete', 'Delete']);
    assert.deepEqual(lengths(f.slices()), [30, 100]);
    assert.ok(f.slices().every((s) => s.addressType === 'IPv4'));
    f.converged();
  });

  it('given a named targetPort resolving to 5 numbers over 300 pods, then 5 slices of 60, one per port (TestReconcileEndpointSlicesNamedPorts)', () => {
    const named: Service = {
      metadata: { name: 'named-port-example', namespace: 'test', uid: 'np' },
      spec: {
        ports: [{ port: 0, targetPort: 'http', protocol: 'TCP' }],
        selector: { foo: 'bar' },
        ipFamilies: ['IPv4'],
      },
    };
    const all = pods('test', 0, 300).map((p, i) => ({
      ...p,
      spec: {
        ...p.spec,
        containers: [{ name: 'c', ports: [{ name: 'http', containerPort: 8080 + (i % 5), protocol: 'TCP' }] }],
      },
    }));
    const f = reconcileFixture({ service: named, pods: all });
    const r = f.reconcile();
    assert.deepEqual(verbs(r), Array<string>(5).fill('Create'));
    assert.deepEqual(lengths(f.slices()), [60, 60, 60, 60, 60]);
    assert.deepEqual(
      f
        .slices()
        .map((s) => s.ports)
        .sort((a, b) => a![0]!.port! - b![0]!.port!),
      [0, 1, 2, 3, 4].map((i) => [{ name: '', protocol: 'TCP', port: 8080 + i }]),
    );
    expectMetrics(r.metrics, {
      desiredSlices: 5,
      actualSlices: 5,
      desiredEndpoints: 300,
      addedPerSync: 300,
      numCreated: 5,
      slicesChangedPerSync: 5,
    });
    f.converged();
  });

  it('given a headless Service without ports whose slice comes back with ports null, then no churn (TestReconcileHeadlessServiceNoPorts)', () => {
    const headless: Service = {
      metadata: { name: 'headless-no-ports', namespace: 'test', uid: 'test-uid' },
      spec: { clusterIP: 'None', selector: { foo: 'bar' }, ipFamilies: ['IPv4'] },
    };
    const f = reconcileFixture({ service: headless, pods: [newPod(1, 'test', true)] });
    const created = bodyOf(f.reconcile().mutations[0]!);
    const { ports: _null, ...served } = {
      ...created,
      metadata: { ...created.metadata, name: 'headless-no-ports-x', uid: 'u', resourceVersion: '5' },
    };
    const again = reconcileFixture({
      service: headless,
      pods: [newPod(1, 'test', true)],
      slices: [served as EndpointSlice],
    });
    assert.deepEqual(verbs(again.reconcile()), []);
  });
});

describe('getSliceToFill (utils.go; no upstream test of its own)', () => {
  const sized = (name: string, n: number): EndpointSlice => ({
    metadata: { name, uid: '' },
    addressType: 'IPv4',
    endpoints: endpointsOf(svc, pods('test', 0, n)),
  });
  it('given room in several slices, then the one ending closest to full, the first of equals; none with room, then none', () => {
    const slices = [sized('a', 50), sized('b', 70), sized('c', 70), sized('d', 95)];
    assert.equal(getSliceToFill(slices, 20, 100)?.metadata.name, 'b');
    assert.equal(getSliceToFill(slices, 5, 100)?.metadata.name, 'd');
    assert.equal(getSliceToFill(slices, 60, 100), undefined);
  });
});

describe('Reconciler.Reconcile: metrics (reconciler_test.go)', () => {
  it('given 20 pods then 10 of them, then 20 added and 1 create, then 10 removed and 1 update (TestReconcileEndpointSlicesMetrics)', () => {
    const all = Array.from({ length: 20 }, (_, i) => newPod(i, 'test', true));
    const f = reconcileFixture({ service: svc, pods: all });
    expectMetrics(f.reconcile().metrics, {
      desiredSlices: 1,
      actualSlices: 1,
      desiredEndpoints: 20,
      addedPerSync: 20,
      numCreated: 1,
      slicesChangedPerSync: 1,
    });
    expectMetrics(f.reconcile({ pods: all.slice(0, 10) }).metrics, {
      desiredSlices: 1,
      actualSlices: 1,
      desiredEndpoints: 10,
      removedPerSync: 10,
      numUpdated: 1,
      slicesChangedPerSync: 1,
    });
    f.converged();
  });

  it('given a slice keeping one endpoint and one pod more, then exactly 1 added; one pod fewer, 1 removed (…EndpointsAddedPerSync, …RemovedPerSync)', () => {
    const [stale, keep, fresh] = [newPod(0, 'test', true), newPod(1, 'test', true), newPod(2, 'test', true)];
    const added = reconcileFixture({
      service: svc,
      pods: [keep, fresh],
      slices: [newEmptyEndpointSlice(1, 'test', meta, svc, endpointsOf(svc, [keep]))],
    });
    assert.deepEqual(added.reconcile().metrics.endpointsAddedPerSync, [1]);
    const removed = reconcileFixture({
      service: svc,
      pods: [keep],
      slices: [newEmptyEndpointSlice(1, 'test', meta, svc, endpointsOf(svc, [stale, keep]))],
    });
    assert.deepEqual(removed.reconcile().metrics.endpointsRemovedPerSync, [1]);
    removed.converged();
  });

  it('given trafficDistribution PreferClose and 2 pods, then the gauges read 1 desired and actual slice, 2 endpoints, PreferClose (…GaugeUpdates)', () => {
    const f = reconcileFixture({
      service: spec(svc, { trafficDistribution: 'PreferClose' }),
      pods: [newPod(1, 'test', true), newPod(2, 'test', true)],
    });
    const { metrics } = f.reconcile();
    assert.deepEqual(servicePortTotals(metrics.servicePortCaches.at(-1)!, 100), {
      actualSlices: 1,
      desiredSlices: 1,
      endpoints: 2,
    });
    assert.equal(metrics.trafficDistribution, 'PreferClose');
    f.converged();
  });
});

describe('Reconciler.finalize (reconciler_test.go TestReconcilerFinalizeSvcDeletionTimestamp)', () => {
  const owner = newEmptyEndpointSlice(0, 'test', meta, svc).metadata.ownerReferences!;
  const slice = (name: string): EndpointSlice => ({
    metadata: { name, namespace: 'test', uid: `uid-${name}`, resourceVersion: '3', ownerReferences: owner },
    addressType: 'IPv4',
    ports: meta.ports,
  });
  const toCreate = { ...slice('to-create'), metadata: { ...slice('to-create').metadata, name: '', uid: '' } };
  const toUpdate = { ...slice('to-update'), endpoints: [{ addresses: ['10.2.3.4'] }] };
  const deleting = { ...svc, metadata: { ...svc.metadata, deletionTimestamp: T0.toISOString() } };
  const cases = [
    ['Attempt create and update, nil deletion timestamp', svc, [toCreate], [], [1, 1, 0]],
    ['Attempt create and update, deletion timestamp set', deleting, [toCreate], [], [0, 1, 0]],
    [
      'Attempt create, update, and delete, nil deletion timestamp, recycling in action',
      svc,
      [toCreate],
      [slice('to-delete')],
      [0, 2, 0],
    ],
    [
      'Attempt create, update, and delete, deletion timestamp set, recycling in action',
      deleting,
      [toCreate],
      [slice('to-delete')],
      [0, 2, 0],
    ],
    ['Attempt update delete, deletion timestamp set', deleting, [], [slice('to-delete')], [0, 1, 1]],
  ] as const;
  for (const [name, service, creates, deletes, want] of cases) {
    it(`given "${name}", then ${want.join('/')} creates/updates/deletes`, () => {
      const writes = finalize(service, creates, [toUpdate], deletes, undefined);
      assert.deepEqual([writes.creates.length, writes.updates.length, writes.deletes.length], want);
      if (deletes.length > 0 && creates.length > 0)
        assert.deepEqual(writes.updates[1]!.preconditions, { uid: 'uid-to-delete', resourceVersion: '3' });
    });
  }
});

describe('Reconciler.Reconcile: pods on a node not found (reconciler_test.go TestReconcilerPodMissingNode)', () => {
  const twoPods = [newPod(0, 'test', true), newPod(1, 'test', true)].map((p, i) => ({
    ...p,
    spec: { ...p.spec, nodeName: `node-${i}` },
  }));
  const existing = (): EndpointSlice =>
    newEmptyEndpointSlice(
      1,
      'test',
      meta,
      svc,
      twoPods.map((p) => endpointsOf(svc, [p])[0]!),
    );
  const cases = [
    ['Create and publishNotReady false', false, ['node-0'], false, ['Create'], 1, true],
    ['Create and publishNotReady true', true, ['node-0'], false, ['Create'], 2, false],
    ['Update and publishNotReady false', false, ['node-0'], true, ['Update'], 1, true],
    ['Update and publishNotReady true and all nodes missing', true, [], true, [], 2, false],
    ['Update and publishNotReady true', true, ['node-0'], true, [], 2, false],
    ['Update if publishNotReady false and no nodes are present', false, [], true, ['Update'], 0, true],
  ] as const;
  for (const [name, publish, nodes, withSlice, want, endpoints, error] of cases) {
    it(`given "${name}", then ${want.join(', ') || 'no write'}, ${endpoints} endpoints${error ? ' and an error' : ''}`, () => {
      const f = reconcileFixture({
        service: spec(svc, { publishNotReadyAddresses: publish }),
        pods: twoPods,
        nodes: nodes.map((n) => newNode(n)),
        slices: withSlice ? [existing()] : [],
      });
      const r = f.reconcile();
      assert.deepEqual(verbs(r), want);
      assert.deepEqual(
        f.slices().map((s) => (s.endpoints ?? []).length),
        [endpoints],
      );
      assert.equal(r.errors.length > 0, error);
      if (error) assert.ok(r.errors.includes('skipping Pod pod1 for Service test/foo: Node node-1 Not Found'));
      f.converged();
    });
  }
});
