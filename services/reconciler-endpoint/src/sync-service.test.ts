import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verbs } from '@kcm-bus/k8s/reconcile.fixture.ts';
import { LABEL_HEADLESS, LABEL_MANAGED_BY } from './endpoints-controller.ts';
import { sortSubsets } from './repack-subsets.ts';
import { addPods, endpointsFixture, newService, storedEndpoints, testPod, written } from './endpoints.fixture.ts';

const MANAGED = { [LABEL_MANAGED_BY]: 'endpoint-controller' };
const HEADLESS_MANAGED = { ...MANAGED, [LABEL_HEADLESS]: '' };
const address = (ns: string, ip: string, name: string) => ({
  ip,
  nodeName: '',
  targetRef: { kind: 'Pod', namespace: ns, name },
});
const selectFoo = { selector: { foo: 'bar' } };

describe('syncService: Services it leaves alone (endpoints_controller_test.go)', () => {
  it('given a Service without selector and hand-made Endpoints, then nothing is written (TestSyncEndpointsItemsPreserveNoSelector)', () => {
    const f = endpointsFixture({
      services: [newService('default', 'foo', { ports: [{ port: 80 }] })],
      endpoints: [
        storedEndpoints('default', 'foo', [{ addresses: [{ ip: '6.7.8.9', nodeName: '' }], ports: [{ port: 1000 }] }]),
      ],
    });
    assert.deepEqual(f.sync('default/foo').mutations, []);
  });
  for (const [name, spec] of [
    ['selector and ports', { ...selectFoo, ports: [{ port: 80 }] }],
    ['ports', { ports: [{ port: 80 }] }],
    ['selector', selectFoo],
    ['neither', {}],
  ] as const) {
    it(`given an ExternalName Service with ${name} and pods, then nothing is written (TestSyncServiceExternalNameType)`, () => {
      const f = endpointsFixture({
        services: [newService('default', 'foo', { ...spec, type: 'ExternalName' })],
        pods: addPods('default', 1, 1),
      });
      assert.deepEqual(f.sync('default/foo').mutations, []);
    });
  }
  it('given stored Endpoints with nil or empty subsets and no pods, then no write (TestSyncEndpointsExistingNilSubsets, …EmptySubsets)', () => {
    for (const subsets of [undefined, []]) {
      const f = endpointsFixture({
        services: [newService('default', 'foo', { ...selectFoo, ports: [{ port: 80 }] })],
        endpoints: [storedEndpoints('default', 'foo', subsets, { labels: MANAGED })],
      });
      assert.deepEqual(f.sync('default/foo').mutations, []);
    }
  });
  it('given stored Endpoints already carrying the headless label, then no write (TestSyncEndpointsHeadlessServiceLabel)', () => {
    const f = endpointsFixture({
      services: [newService('default', 'foo', { ...selectFoo, ports: [{ port: 80 }] })],
      endpoints: [storedEndpoints('default', 'foo', [], { labels: HEADLESS_MANAGED })],
    });
    assert.deepEqual(f.sync('default/foo').mutations, []);
  });
  it("given only the pods' resourceVersions changed, then no write (TestSyncEndpointsWithPodResourceVersionUpdateOnly)", () => {
    const [pod0, pod1] = [testPod('default', 0, 1, true), testPod('default', 1, 1, false)];
    const f = endpointsFixture({
      services: [
        newService('default', 'foo', {
          ...selectFoo,
          ports: [{ port: 80, protocol: 'TCP', targetPort: 8080 }],
          ipFamilies: ['IPv4'],
        }),
      ],
      pods: [
        { ...pod0, metadata: { ...pod0.metadata, resourceVersion: '3' } },
        { ...pod1, metadata: { ...pod1.metadata, resourceVersion: '4' } },
      ],
      endpoints: [
        storedEndpoints(
          'default',
          'foo',
          [
            {
              addresses: [
                {
                  ...address('default', '1.2.3.4', 'pod0'),
                  targetRef: { kind: 'Pod', name: 'pod0', namespace: 'default', resourceVersion: '1' },
                },
              ],
              notReadyAddresses: [
                {
                  ...address('default', '1.2.3.5', 'pod1'),
                  targetRef: { kind: 'Pod', name: 'pod1', namespace: 'default', resourceVersion: '2' },
                },
              ],
              ports: [{ port: 8080, protocol: 'TCP' }],
            },
          ],
          { labels: MANAGED },
        ),
      ],
    });
    assert.deepEqual(f.sync('default/foo').mutations, []);
  });
  it('given identical stored Endpoints, even in an order RepackSubsets would not give, then no write (…PreexistingIdentical, …IdenticalUnsorted)', () => {
    const f = endpointsFixture({
      services: [
        newService('default', 'foo', {
          ...selectFoo,
          ports: [{ port: 80, protocol: 'TCP', targetPort: 8080 }],
          ipFamilies: ['IPv4'],
        }),
      ],
      pods: addPods('default', 2, 1),
      endpoints: [
        storedEndpoints(
          'default',
          'foo',
          [
            {
              addresses: [address('default', '1.2.3.5', 'pod1'), address('default', '1.2.3.4', 'pod0')],
              ports: [{ port: 8080, protocol: 'TCP' }],
            },
          ],
          { labels: MANAGED },
        ),
      ],
    });
    assert.deepEqual(f.sync('default/foo').mutations, []);
  });
});

describe('syncService: what it writes', () => {
  it('given no Endpoints and no pods, then one Create (TestSyncEndpointsNewNoSubsets), then convergence', () => {
    const f = endpointsFixture({ services: [newService('default', 'foo', { ...selectFoo, ports: [{ port: 80 }] })] });
    assert.deepEqual(verbs(f.sync('default/foo')), { Create: 1 });
    assert.equal(f.converge('default/foo'), 1);
  });
  for (const protocol of ['TCP', 'UDP', 'SCTP']) {
    it(`given stale Endpoints and a ${protocol} port, then a PUT of the pod's address with the protocol and the headless label (TestSyncEndpointsProtocol${protocol})`, () => {
      const f = endpointsFixture({
        services: [
          newService('other', 'foo', {
            selector: {},
            ports: [{ port: 80, targetPort: 8080, protocol }],
            ipFamilies: ['IPv4'],
          }),
        ],
        pods: addPods('other', 1, 1),
        endpoints: [
          storedEndpoints('other', 'foo', [
            { addresses: [{ ip: '6.7.8.9', nodeName: '' }], ports: [{ port: 1000, protocol }] },
          ]),
        ],
      });
      const result = f.sync('other/foo');
      assert.deepEqual(verbs(result), { Update: 1 });
      assert.equal(result.mutations[0]!.preconditions.resourceVersion, '1');
      assert.deepEqual(written(result), {
        ...storedEndpoints(
          'other',
          'foo',
          [{ addresses: [address('other', '1.2.3.4', 'pod0')], ports: [{ port: 8080, protocol }] }],
          { labels: HEADLESS_MANAGED },
        ),
      });
      assert.equal(f.converge('other/foo'), 1);
    });
  }
  it('given one port number on TCP and UDP, then one subset with both ports, UDP first (TestSyncEndpointsProtocolMultiProtocolSamePort)', () => {
    const f = endpointsFixture({
      services: [
        newService('other', 'foo', {
          selector: {},
          ports: [
            { port: 80, targetPort: 8080, protocol: 'TCP' },
            { port: 80, targetPort: 8080, protocol: 'UDP' },
          ],
          ipFamilies: ['IPv4'],
        }),
      ],
      pods: addPods('other', 1, 1),
      endpoints: [storedEndpoints('other', 'foo', undefined)],
    });
    assert.deepEqual(written(f.sync('other/foo'))?.subsets, [
      {
        addresses: [address('other', '1.2.3.4', 'pod0')],
        ports: [
          { port: 8080, protocol: 'UDP' },
          { port: 8080, protocol: 'TCP' },
        ],
      },
    ]);
  });
  it('given an empty selector and ready, not-ready or mixed pods, then all are selected, split into addresses and notReadyAddresses (…EmptySelectorSelectsAll*)', () => {
    for (const [ready, notReady] of [
      [1, 0],
      [0, 1],
      [1, 1],
    ] as const) {
      const f = endpointsFixture({
        services: [
          newService('other', 'foo', {
            selector: {},
            ports: [{ port: 80, protocol: 'TCP', targetPort: 8080 }],
            ipFamilies: ['IPv4'],
          }),
        ],
        pods: addPods('other', ready, 1, notReady),
        endpoints: [
          storedEndpoints('other', 'foo', [{ addresses: [{ ip: '6.7.8.9', nodeName: '' }], ports: [{ port: 1000 }] }]),
        ],
      });
      const subset = written(f.sync('other/foo'))!.subsets![0]!;
      assert.deepEqual([subset.addresses?.length ?? 0, subset.notReadyAddresses?.length ?? 0], [ready, notReady]);
      assert.equal(f.converge('other/foo'), 1);
    }
  });
  it('given 3 pods with 2 ports and pods elsewhere, then one repacked subset is POSTed, the other namespace ignored (TestSyncEndpointsItems)', () => {
    const f = endpointsFixture({
      services: [
        newService('other', 'foo', {
          ...selectFoo,
          ports: [
            { name: 'port0', port: 80, protocol: 'TCP', targetPort: 8080 },
            { name: 'port1', port: 88, protocol: 'TCP', targetPort: 8088 },
          ],
          ipFamilies: ['IPv4'],
        }),
      ],
      pods: [...addPods('other', 3, 2), ...addPods('blah', 5, 2)],
    });
    const result = f.sync('other/foo');
    assert.deepEqual(verbs(result), { Create: 1 });
    assert.deepEqual(written(result), {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'foo', labels: HEADLESS_MANAGED },
      subsets: sortSubsets([
        {
          addresses: [0, 1, 2].map((i) => address('other', `1.2.3.${4 + i}`, `pod${i}`)),
          ports: [
            { name: 'port0', port: 8080, protocol: 'TCP' },
            { name: 'port1', port: 8088, protocol: 'TCP' },
          ],
        },
      ]),
    });
    assert.equal(f.converge('other/foo'), 1);
  });
  it('given Service labels, then they are copied with headless and managed-by, replacing what the Endpoints had (…WithLabels, …PreexistingLabelsChange)', () => {
    const labels = { foo: 'bar', baz: 'blah' };
    const svc = newService(
      'other',
      'foo',
      { ...selectFoo, clusterIP: '10.0.0.1', ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] },
      labels,
    );
    const created = endpointsFixture({ services: [svc], pods: addPods('other', 1, 1) });
    assert.deepEqual(written(created.sync('other/foo'))?.metadata.labels, { ...labels, ...MANAGED });
    const changed = endpointsFixture({
      services: [svc],
      pods: addPods('other', 1, 1),
      endpoints: [storedEndpoints('other', 'foo', [], { labels: { foo: 'bar', old: 'x', ...MANAGED } })],
    });
    assert.deepEqual(written(changed.sync('other/foo'))?.metadata.labels, { ...labels, ...MANAGED });
    assert.equal(changed.converge('other/foo'), 1);
  });
  it("given stale addresses, then they are replaced by the current pods' (TestSyncEndpointsItemsPreexisting)", () => {
    const f = endpointsFixture({
      services: [
        newService('bar', 'foo', {
          ...selectFoo,
          ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }],
          ipFamilies: ['IPv4'],
        }),
      ],
      pods: addPods('bar', 1, 1),
      endpoints: [
        storedEndpoints('bar', 'foo', [{ addresses: [{ ip: '6.7.8.9', nodeName: '' }], ports: [{ port: 1000 }] }], {
          labels: MANAGED,
        }),
      ],
    });
    assert.deepEqual(written(f.sync('bar/foo'))?.subsets, [
      { addresses: [address('bar', '1.2.3.4', 'pod0')], ports: [{ port: 8080, protocol: 'TCP' }] },
    ]);
  });
  it('given a headless Service with no ports, then addresses without ports; with a cluster IP, none (…HeadlessService, …HeadlessWithoutPort)', () => {
    const headless = endpointsFixture({
      services: [newService('default', 'foo', { ...selectFoo, clusterIP: 'None', ipFamilies: ['IPv4'] })],
      pods: addPods('default', 1, 0),
    });
    assert.deepEqual(written(headless.sync('default/foo'))?.subsets, [
      { addresses: [address('default', '1.2.3.4', 'pod0')] },
    ]);
    assert.equal(headless.converge('default/foo'), 1);
    const withIP = endpointsFixture({
      services: [newService('default', 'foo', { ...selectFoo, clusterIP: '10.0.0.1', ipFamilies: ['IPv4'] })],
      pods: addPods('default', 1, 0),
    });
    assert.equal(written(withIP.sync('default/foo'))?.subsets, undefined);
  });
  for (const [policy, phase] of [
    ['Never', 'Failed'],
    ['Never', 'Succeeded'],
    ['OnFailure', 'Succeeded'],
  ] as const) {
    it(`given not-ready pods with restartPolicy ${policy} in phase ${phase}, then they are excluded (…RestartPolicy${policy}AndPhase${phase})`, () => {
      const pods = addPods('other', 0, 1, 1).map((p) => ({ ...p, status: { ...p.status, phase } }));
      const f = endpointsFixture({
        services: [
          newService('other', 'foo', {
            selector: {},
            ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }],
            ipFamilies: ['IPv4'],
          }),
        ],
        pods,
        endpoints: [
          storedEndpoints('other', 'foo', [{ addresses: [{ ip: '6.7.8.9', nodeName: '' }], ports: [{ port: 1000 }] }]),
        ],
      });
      assert.equal(written(f.sync('other/foo'))?.subsets, undefined);
    });
  }
  it('given the Service is gone, then its Endpoints are deleted; given neither, then nothing (TestSyncEndpointsServiceNotFound)', () => {
    const f = endpointsFixture({ endpoints: [storedEndpoints('default', 'foo', [])] });
    assert.deepEqual(verbs(f.sync('default/foo')), { Delete: 1 });
    assert.equal(f.converge('default/foo'), 1);
    assert.equal(f.cluster.objects.endpoints.size, 0);
  });
});
