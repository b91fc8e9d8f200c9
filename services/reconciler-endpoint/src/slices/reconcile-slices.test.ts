import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import { type Endpoint, LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from '@kcm-bus/k8s/discovery-v1.ts';
import { ANNOTATION_TRIGGER_TIME, LABEL_HEADLESS } from '../endpoints-controller.ts';
import { MANAGED_BY } from './endpointslice-controller.ts';
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
const OURS = { [LABEL_MANAGED_BY]: MANAGED_BY, [LABEL_SERVICE_NAME]: 'foo' };
const spec = (s: Service, change: Partial<NonNullable<Service['spec']>>): Service => ({
  ...s,
  spec: { ...s.spec, ...change },
});
const verbs = (r: { mutations: readonly { verb: string }[] }): string[] => r.mutations.map((m) => m.verb);

describe("Reconciler.Reconcile: a Service's first slices (reconciler_test.go)", () => {
  it('given no pods, then one placeholder slice foo-… with no ports and no endpoints (TestReconcileEmpty), then convergence', () => {
    const f = reconcileFixture({ service: svc });
    const r = f.reconcile();
    assert.deepEqual(verbs(r), ['Create']);
    const [slice] = f.slices();
    assert.match(slice!.metadata.name, /^foo-/);
    assert.deepEqual([slice!.metadata.labels?.[LABEL_SERVICE_NAME], slice!.ports, slice!.endpoints], ['foo', [], []]);
    expectMetrics(r.metrics, { desiredSlices: 1, actualSlices: 1, numCreated: 1, slicesChangedPerSync: 1 });
    f.converged();
  });

  describe('given one pod with an IPv4 and an IPv6 address on a zoned node (TestReconcile1Pod)', () => {
    const pod1: Pod = {
      ...newPod(1, 'test', true),
      spec: { containers: [{ name: 'container-1' }], nodeName: 'node-1', hostname: 'example-hostname' },
      status: {
        ...newPod(1, 'test', true).status,
        podIPs: [{ ip: '1.2.3.4' }, { ip: '1234::5678:0000:0000:9abc:def0' }],
      },
    };
    const node1 = {
      ...newNode('node-1'),
      metadata: {
        name: 'node-1',
        uid: 'n',
        labels: { 'topology.kubernetes.io/zone': 'us-central1-a', 'topology.kubernetes.io/region': 'us-central1' },
      },
    };
    const endpoint = (address: string): Endpoint => ({
      addresses: [address],
      conditions: { ready: true, serving: true, terminating: false },
      targetRef: { kind: 'Pod', namespace: 'test', name: 'pod1' },
      nodeName: 'node-1',
      zone: 'us-central1-a',
    });
    const [v4, v6] = [endpoint('1.2.3.4'), endpoint('1234::5678:0:0:9abc:def0')];
    const bad = { [LABEL_SERVICE_NAME]: 'bad', [LABEL_MANAGED_BY]: 'actor', [LABEL_HEADLESS]: 'invalid' };
    const cases: readonly [string, Service, Record<string, Endpoint>, Record<string, string>][] = [
      ['no-family-service', spec(svc, { clusterIP: '10.0.0.10', ipFamilies: [] }), { IPv4: v4 }, OURS],
      ['ipv4', svc, { IPv4: v4 }, { ...OURS, [LABEL_HEADLESS]: '' }],
      ['ipv4-clusterip', spec(svc, { clusterIP: '1.1.1.1' }), { IPv4: v4 }, OURS],
      [
        'ipv4-labels',
        { ...svc, metadata: { ...svc.metadata, labels: { foo: 'bar' } } },
        { IPv4: v4 },
        { ...OURS, foo: 'bar', [LABEL_HEADLESS]: '' },
      ],
      [
        'ipv4-bad-labels',
        { ...svc, metadata: { ...svc.metadata, labels: bad } },
        { IPv4: v4 },
        { ...OURS, [LABEL_HEADLESS]: '' },
      ],
      ['ipv6', spec(svc, { ipFamilies: ['IPv6'] }), { IPv6: v6 }, { ...OURS, [LABEL_HEADLESS]: '' }],
      [
        'ipv6-clusterip',
        spec(svc, { clusterIP: '1234::5678:0000:0000:9abc:def1', ipFamilies: ['IPv6'] }),
        { IPv6: v6 },
        OURS,
      ],
      [
        'dualstack-service',
        spec(svc, { clusterIP: '10.0.0.10', ipFamilies: ['IPv4', 'IPv6'] }),
        { IPv4: v4, IPv6: v6 },
        OURS,
      ],
    ];
    for (const [name, service, want, labels] of cases) {
      it(`given a ${name} Service, then one slice per address type with the endpoint, labels and trigger time, then convergence`, () => {
        const f = reconcileFixture({ service, pods: [pod1], nodes: [node1] });
        const r = f.reconcile();
        assert.deepEqual(
          verbs(r),
          Object.keys(want).map(() => 'Create'),
        );
        for (const slice of f.slices()) {
          assert.match(slice.metadata.name, /^foo-/);
          assert.deepEqual(slice.metadata.labels, labels);
          assert.equal(slice.metadata.annotations?.[ANNOTATION_TRIGGER_TIME], T0.toISOString().replace('.000Z', 'Z'));
          assert.deepEqual(slice.endpoints, [want[slice.addressType]]);
          assert.deepEqual(slice.metadata.ownerReferences, [
            {
              apiVersion: 'v1',
              kind: 'Service',
              name: 'foo',
              uid: 'test-foo',
              controller: true,
              blockOwnerDeletion: true,
            },
          ]);
        }
        expectMetrics(r.metrics, {
          desiredSlices: 1,
          actualSlices: 1,
          desiredEndpoints: 1,
          addedPerSync: Object.keys(want).length,
          numCreated: Object.keys(want).length,
          slicesChangedPerSync: Object.keys(want).length,
        });
        f.converged();
      });
    }
  });

  it('given 50 pods, a third not ready, and publishNotReadyAddresses, then one slice of 50 all ready (TestReconcile1EndpointSlicePublishNotReadyAddresses)', () => {
    const f = reconcileFixture({ service: spec(svc, { publishNotReadyAddresses: true }), pods: pods('test', 0, 50) });
    assert.deepEqual(verbs(f.reconcile()), ['Create']);
    assert.deepEqual(lengths(f.slices()), [50]);
    assert.ok(f.slices()[0]!.endpoints!.every((e) => e.conditions?.ready === true));
    f.converged();
  });

  it('given 250 pods, then 3 creates of 100, 100 and 50 (TestReconcileManyPods), then convergence', () => {
    const f = reconcileFixture({ service: svc, pods: pods('test', 0, 250) });
    const r = f.reconcile();
    assert.deepEqual(verbs(r), ['Create', 'Create', 'Create']);
    assert.deepEqual(lengths(f.slices()), [50, 100, 100]);
    expectMetrics(r.metrics, {
      desiredSlices: 3,
      actualSlices: 3,
      desiredEndpoints: 250,
      addedPerSync: 250,
      numCreated: 3,
      slicesChangedPerSync: 3,
    });
    f.converged();
  });

  for (const [max, want] of [
    [50, [50, 50, 50, 50, 50]],
    [80, [10, 80, 80, 80]],
    [150, [100, 150]],
    [250, [250]],
    [500, [250]],
  ] as const) {
    it(`given 250 pods and maxEndpointsPerSlice ${max}, then slices of ${want.join(', ')} (TestReconcileMaxEndpointsPerSlice)`, () => {
      const f = reconcileFixture({ service: svc, pods: pods('test', 0, 250), maxEndpointsPerSlice: max });
      const r = f.reconcile();
      assert.deepEqual(lengths(f.slices()), want);
      expectMetrics(
        r.metrics,
        {
          desiredSlices: want.length,
          actualSlices: want.length,
          desiredEndpoints: 250,
          addedPerSync: 250,
          numCreated: want.length,
          slicesChangedPerSync: want.length,
        },
        max,
      );
      f.converged();
    });
  }
});

describe('Reconciler.Reconcile: existing slices (reconciler_test.go)', () => {
  const placeholder = {
    ...newEmptyEndpointSlice(9, 'test', { ports: [], addressType: 'IPv4' }, svc),
    metadata: { ...newEmptyEndpointSlice(9, 'test', meta, svc).metadata, labels: { ...OURS, [LABEL_HEADLESS]: '' } },
  };
  const different = {
    ...newEmptyEndpointSlice(1, 'test', meta, svc),
    metadata: { ...newEmptyEndpointSlice(1, 'test', meta, svc).metadata, labels: { bar: 'baz' } },
  };
  for (const [desc, existing, want] of [
    ["an existing placeholder that's the same", placeholder, []],
    ["an existing placeholder that's different", different, ['Update']],
  ] as const) {
    it(`given no pods and ${desc}, then ${want.length === 0 ? 'no write' : 'it is updated into the placeholder'} (TestReconcile1EndpointSlice)`, () => {
      const f = reconcileFixture({ service: svc, slices: [existing] });
      const r = f.reconcile();
      assert.deepEqual(verbs(r), want);
      expectMetrics(r.metrics, {
        desiredSlices: 1,
        actualSlices: 1,
        numUpdated: want.length,
        slicesChangedPerSync: want.length,
      });
      assert.deepEqual(
        f.slices().map((s) => [s.metadata.name, s.ports, s.endpoints]),
        [[existing.metadata.name, [], []]],
      );
      f.converged();
    });
  }

  it('given 250 pods, 62 and 61 of them in two slices, then 1 create of 100 and the fuller slice filled to 89 (TestReconcileEndpointSlicesSomePreexisting)', () => {
    const all = pods('test', 0, 250);
    const slice1 = newEmptyEndpointSlice(
      1,
      'test',
      meta,
      svc,
      endpointsOf(
        svc,
        all.filter((_, i) => i % 4 === 1 && i < 246),
      ),
    );
    const slice2 = newEmptyEndpointSlice(
      2,
      'test',
      meta,
      svc,
      endpointsOf(
        svc,
        all.filter((_, i) => i % 4 === 3 && i < 246),
      ),
    );
    const f = reconcileFixture({ service: svc, pods: all, slices: [slice1, slice2] });
    const r = f.reconcile();
    assert.deepEqual(verbs(r), ['Create', 'Update']);
    assert.equal(bodyOf(r.mutations[1]!).metadata.name, 'foo-1');
    assert.deepEqual(lengths(f.slices()), [61, 89, 100]);
    expectMetrics(r.metrics, {
      desiredSlices: 3,
      actualSlices: 3,
      desiredEndpoints: 250,
      addedPerSync: 127,
      numCreated: 1,
      numUpdated: 1,
      slicesChangedPerSync: 2,
    });
    f.converged();
  });

  it('given 300 pods, 74 and 74 in two slices, then 2 creates of 100 and 52 rather than 2 updates (…SomePreexistingWorseAllocation)', () => {
    const all = pods('test', 0, 300);
    const slice1 = newEmptyEndpointSlice(
      1,
      'test',
      meta,
      svc,
      endpointsOf(
        svc,
        all.filter((_, i) => i % 4 === 1 && i < 296),
      ),
    );
    const slice2 = newEmptyEndpointSlice(
      2,
      'test',
      meta,
      svc,
      endpointsOf(
        svc,
        all.filter((_, i) => i % 4 === 3 && i < 296),
      ),
    );
    const f = reconcileFixture({ service: svc, pods: all, slices: [slice1, slice2] });
    const r = f.reconcile();
    assert.deepEqual(verbs(r), ['Create', 'Create']);
    assert.deepEqual(lengths(f.slices()), [52, 74, 74, 100]);
    expectMetrics(r.metrics, {
      desiredSlices: 3,
      actualSlices: 4,
      desiredEndpoints: 300,
      addedPerSync: 152,
      numCreated: 2,
      slicesChangedPerSync: 2,
    });
    f.converged();
  });

  it('given 3 slices and a changed targetPort, then 3 updates, not creates and deletes (TestReconcileEndpointSlicesUpdating)', () => {
    const f = reconcileFixture({ service: svc, pods: pods('test', 0, 250) });
    f.reconcile();
    const r = f.reconcile({
      service: spec(svc, { ports: [{ name: 'foo', port: 0, targetPort: 81, protocol: 'TCP' }] }),
    });
    assert.deepEqual(verbs(r), ['Update', 'Update', 'Update']);
    assert.deepEqual(lengths(f.slices()), [50, 100, 100]);
    assert.ok(f.slices().every((s) => s.ports?.[0]?.port === 81));
    f.converged();
  });

  it('given new Service labels, then all 3 slices are updated with them; reserved ones change nothing (…ServicesLabelsUpdating, …ServicesReservedLabels)', () => {
    const f = reconcileFixture({ service: svc, pods: pods('test', 0, 250) });
    f.reconcile();
    const reserved = f.reconcile({
      service: {
        ...svc,
        metadata: {
          ...svc.metadata,
          labels: { [LABEL_SERVICE_NAME]: 'bad', [LABEL_MANAGED_BY]: 'actor', [LABEL_HEADLESS]: 'invalid' },
        },
      },
    });
    assert.deepEqual(verbs(reserved), []);
    const r = f.reconcile({ service: { ...svc, metadata: { ...svc.metadata, labels: { foo: 'bar' } } } });
    assert.deepEqual(verbs(r), ['Update', 'Update', 'Update']);
    assert.ok(f.slices().every((s) => s.metadata.labels?.['foo'] === 'bar'));
    f.converged();
  });

  it('given 10 slices of 30, then no write; after a targetPort change, 3 full updates and 7 deletes (TestReconcileEndpointSlicesRecycling)', () => {
    const all = pods('test', 0, 300);
    const existing = Array.from({ length: 10 }, (_, n) =>
      newEmptyEndpointSlice(n, 'test', meta, svc, endpointsOf(svc, all.slice(n * 30, n * 30 + 30))),
    );
    const f = reconcileFixture({ service: svc, pods: all, slices: existing });
    assert.deepEqual(verbs(f.reconcile()), []);
    const r = f.reconcile({
      service: spec(svc, { ports: [{ name: 'foo', port: 0, targetPort: 81, protocol: 'TCP' }] }),
    });
    assert.deepEqual(verbs(r), [...Array<string>(3).fill('Update'), ...Array<string>(7).fill('Delete')]);
    assert.deepEqual(lengths(f.slices()), [100, 100, 100]);
    expectMetrics(r.metrics, {
      desiredSlices: 3,
      actualSlices: 3,
      desiredEndpoints: 300,
      addedPerSync: 300,
      numUpdated: 3,
      numDeleted: 7,
      slicesChangedPerSync: 10,
    });
    f.converged();
  });

  for (const [name, owned, want] of [
    ['slice owned by Service', true, []],
    ['slice owned by other Service UID', false, ['Create', 'Delete']],
  ] as const) {
    it(`given a ${name}, then ${want.length === 0 ? 'no write' : 'a new slice and the old one deleted'} (TestReconcileEndpointSlicesRecreation)`, () => {
      const pod = newPod(1, 'test', true);
      const slice = newEmptyEndpointSlice(1, 'test', meta, svc, endpointsOf(svc, [pod]));
      const other = {
        ...slice,
        metadata: {
          ...slice.metadata,
          ownerReferences: [{ ...slice.metadata.ownerReferences![0]!, uid: 'different' }],
        },
      };
      const f = reconcileFixture({ service: svc, pods: [pod], slices: [owned ? slice : other] });
      assert.deepEqual(verbs(f.reconcile()), want);
      assert.equal(f.slices().length, 1);
      f.converged();
    });
  }
});
