import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import { type EndpointSlice, LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from '@kcm-bus/k8s/discovery-v1.ts';
import { verbs } from '@kcm-bus/k8s/reconcile.fixture.ts';
import { ANNOTATION_TRIGGER_TIME } from '../endpoints-controller.ts';
import { MANAGED_BY } from './endpointslice-controller.ts';
import { newPod, T0 } from './slices.fixture.ts';
import { createService, syncFixture } from './sync.fixture.ts';

const NS = 'default';
const KEY = `${NS}/testing-1`;
const ours = (
  name: string,
  extra: Partial<EndpointSlice['metadata']> = {},
  labels: Record<string, string> = { [LABEL_SERVICE_NAME]: 'testing-1', [LABEL_MANAGED_BY]: MANAGED_BY },
): EndpointSlice => {
  const ownerReferences = [
    {
      apiVersion: 'v1',
      kind: 'Service',
      name: 'testing-1',
      uid: `${NS}-testing-1`,
      controller: true,
      blockOwnerDeletion: true,
    },
  ];
  return {
    metadata: { name, namespace: NS, uid: `uid-${name}`, resourceVersion: '1', ownerReferences, labels, ...extra },
    addressType: 'IPv4',
  };
};

describe('syncService: Services it leaves alone (endpointslice_controller_test.go)', () => {
  it('given a Service without selector, then no action (TestSyncServiceNoSelector)', () => {
    const { spec: { selector: _s, ...spec } = {}, ...rest } = createService(NS, 'testing-1');
    assert.deepEqual(syncFixture({ services: [{ ...rest, spec }] }).sync(KEY).mutations, []);
  });
  for (const [desc, spec] of [
    ['selector and ports', { selector: { foo: 'bar' }, ports: [{ port: 80 }] }],
    ['ports', { ports: [{ port: 80 }] }],
    ['selector', { selector: { foo: 'bar' } }],
    ['neither', {}],
  ] as const) {
    it(`given an ExternalName Service with ${desc} and a pod, then no slice (TestServiceExternalNameTypeSync)`, () => {
      const f = syncFixture({
        services: [
          { metadata: { name: 'testing-1', namespace: NS, uid: 'u' }, spec: { ...spec, type: 'ExternalName' } },
        ],
        pods: [newPod(1, NS, true)],
      });
      assert.deepEqual(f.sync(KEY).mutations, []);
    });
  }
  it('given a Service pending deletion and no slice, then no placeholder is created (TestSyncServicePendingDeletion)', () => {
    const svc = createService(NS, 'testing-1');
    assert.deepEqual(
      syncFixture({ services: [{ ...svc, metadata: { ...svc.metadata, deletionTimestamp: T0.toISOString() } }] }).sync(
        KEY,
      ).mutations,
      [],
    );
  });
  it('given the Service gone, then nothing is written (its slices go by garbage collection) and its trigger times are forgotten (TestSyncServiceMissing)', () => {
    const f = syncFixture({ services: [createService(NS, 'testing-1')] });
    f.write(f.sync(KEY));
    const gone = f.cluster.objects.services.get(KEY)!;
    f.cluster.objects.services.delete(KEY);
    const result = f.sync(KEY);
    assert.deepEqual([result.mutations, result.serviceDeleted, f.slices().length], [[], true, 1]);
    f.cluster.objects.services.set(KEY, gone);
    f.cluster.objects.endpointslices.clear();
    const again = f.sync(KEY);
    assert.equal(
      JSON.parse(again.mutations[0]!.body!).metadata.annotations[ANNOTATION_TRIGGER_TIME],
      '2026-11-23T09:00:00Z',
      'a namesake starts afresh',
    );
  });
});

describe('syncService: what it writes (endpointslice_controller_test.go)', () => {
  it('given a Service with selector and no pods, then a placeholder with the trigger time (TestSyncServiceWithSelector), then convergence', () => {
    const f = syncFixture({ services: [createService(NS, 'testing-1')] });
    const result = f.sync(KEY);
    assert.deepEqual(verbs(result), { Create: 1 });
    f.write(result);
    assert.equal(f.converge(KEY), 0);
    const [slice] = f.slices();
    assert.match(slice!.metadata.name, /^testing-1-/);
    assert.deepEqual(
      [slice!.metadata.labels?.[LABEL_SERVICE_NAME], slice!.ports, slice!.endpoints],
      ['testing-1', [], []],
    );
    assert.equal(slice!.metadata.annotations?.[ANNOTATION_TRIGGER_TIME], '2026-11-23T09:00:00Z');
  });
  it('given a selected pod and one labelled foo=boo, then a slice of the first only (TestSyncServicePodSelection)', () => {
    const pod2 = newPod(2, NS, true);
    const f = syncFixture({
      services: [createService(NS, 'testing-1')],
      pods: [newPod(1, NS, true), { ...pod2, metadata: { ...pod2.metadata, labels: { foo: 'boo' } } }],
    });
    assert.equal(f.converge(KEY), 1);
    assert.deepEqual(
      f.slices()[0]!.endpoints!.map((e) => e.targetRef),
      [{ kind: 'Pod', namespace: NS, name: 'pod1' }],
    );
  });
  it('given our slice pending deletion besides the placeholder, then it is ignored: no action (TestSyncServiceEndpointSlicePendingDeletion)', () => {
    const f = syncFixture({ services: [createService(NS, 'testing-1')] });
    f.write(f.sync(KEY));
    f.cluster.objects.endpointslices.set(`${NS}/epSlice-1`, ours('epSlice-1', { deletionTimestamp: T0.toISOString() }));
    assert.deepEqual(f.sync(KEY).mutations, []);
  });
  it('given 2 slices of ours, one only named for it, one of another Service, one managed by another, then 1 update (placeholder) and 1 delete (TestSyncServiceEndpointSliceLabelSelection)', () => {
    const others = [
      ours('partially-matching-1', {}, { [LABEL_SERVICE_NAME]: 'testing-1' }),
      ours('not-matching-1', {}, { [LABEL_SERVICE_NAME]: 'something-else', [LABEL_MANAGED_BY]: MANAGED_BY }),
      ours('not-matching-2', {}, { [LABEL_SERVICE_NAME]: 'testing-1', [LABEL_MANAGED_BY]: 'something-else' }),
    ];
    const f = syncFixture({
      services: [createService(NS, 'testing-1')],
      endpointslices: [ours('matching-1'), ours('matching-2'), ...others],
    });
    const result = f.sync(KEY);
    assert.deepEqual(
      result.mutations.map((m) => [m.verb, m.target.name]),
      [
        ['Update', 'matching-1'],
        ['Delete', 'matching-2'],
      ],
    );
    f.write(result);
    assert.equal(f.converge(KEY), 0);
  });
});

describe('syncService: a slice labelled ours without an owner reference to the Service (TestReconcileEndpointSlicesRecreation)', () => {
  it('given it holds the current endpoints, then a new owned slice is created and it is deleted (never taken over), then convergence', () => {
    const pod = newPod(1, NS, true);
    const orphan = {
      ...ours('orphan', { ownerReferences: [] }),
      endpoints: [
        {
          addresses: ['1.2.3.5'],
          conditions: { ready: true, serving: true, terminating: false },
          targetRef: { kind: 'Pod', namespace: NS, name: 'pod1' },
          nodeName: 'node-1',
        },
      ],
    };
    const f = syncFixture({ services: [createService(NS, 'testing-1')], pods: [pod], endpointslices: [orphan] });
    const result = f.sync(KEY);
    assert.deepEqual(
      result.mutations.map((m) => [m.verb, m.target.name]),
      [
        ['Create', ''],
        ['Delete', 'orphan'],
      ],
    );
    f.write(result);
    assert.equal(f.converge(KEY), 0);
    assert.deepEqual(
      f.slices().map((s) => s.metadata.ownerReferences?.[0]?.uid),
      [`${NS}-testing-1`],
    );
  });
});

describe('syncService: endpoints (endpointslice_controller_test.go TestSyncService)', () => {
  const service: Service = {
    metadata: { name: 'foobar', namespace: NS, uid: 'fb', creationTimestamp: '2026-11-23T09:00:00Z' },
    spec: {
      selector: { foo: 'bar' },
      ipFamilies: ['IPv4'],
      ports: [
        { name: 'tcp-example', port: 0, targetPort: 80, protocol: 'TCP' },
        { name: 'udp-example', port: 0, targetPort: 161, protocol: 'UDP' },
        { name: 'sctp-example', port: 0, targetPort: 3456, protocol: 'SCTP' },
      ],
    },
  };
  const pod = (name: string, ips: string[], ready: boolean, terminating = false): Pod => ({
    metadata: {
      namespace: NS,
      name,
      uid: '',
      labels: { foo: 'bar' },
      ...(terminating ? { deletionTimestamp: T0.toISOString() } : {}),
    },
    spec: { containers: [{ name: 'container-1' }], nodeName: 'node-1' },
    status: {
      podIP: ips[0]!,
      podIPs: ips.map((ip) => ({ ip })),
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
    },
  });
  const endpoint = (name: string, address: string, [ready, serving, terminating]: [boolean, boolean, boolean]) => ({
    addresses: [address],
    conditions: { ready, serving, terminating },
    targetRef: { kind: 'Pod', namespace: NS, name },
    nodeName: 'node-1',
  });
  const cases = [
    [
      'pods with multiple IPs and Service with ipFamilies=ipv4',
      'IPv4',
      [pod('pod0', ['10.0.0.1'], true), pod('pod1', ['10.0.0.2', 'fd08::5678:0000:0000:9abc:def0'], true)],
      [endpoint('pod0', '10.0.0.1', [true, true, false]), endpoint('pod1', '10.0.0.2', [true, true, false])],
    ],
    [
      'pods with multiple IPs and Service with ipFamilies=ipv6',
      'IPv6',
      [pod('pod0', ['10.0.0.1'], true), pod('pod1', ['10.0.0.2', 'fd08::5678:0000:0000:9abc:def0'], true)],
      [endpoint('pod1', 'fd08::5678:0:0:9abc:def0', [true, true, false])],
    ],
    [
      'Terminating pods',
      'IPv4',
      [pod('pod0', ['10.0.0.1'], true), pod('pod1', ['10.0.0.2'], true, true)],
      [endpoint('pod0', '10.0.0.1', [true, true, false]), endpoint('pod1', '10.0.0.2', [false, true, true])],
    ],
    [
      'Not ready terminating pods',
      'IPv4',
      [pod('pod0', ['10.0.0.1'], true), pod('pod1', ['10.0.0.2'], false, true)],
      [endpoint('pod0', '10.0.0.1', [true, true, false]), endpoint('pod1', '10.0.0.2', [false, false, true])],
    ],
    [
      'Ready and Complete pods with same IPs',
      'IPv4',
      [pod('pod0', ['10.0.0.1'], true), pod('pod1', ['10.0.0.1'], false)],
      [endpoint('pod0', '10.0.0.1', [true, true, false]), endpoint('pod1', '10.0.0.1', [false, false, false])],
    ],
    [
      'Two Ready pods with same IPs',
      'IPv4',
      [pod('pod0', ['10.0.0.1'], true), pod('pod1', ['10.0.0.1'], true)],
      [endpoint('pod0', '10.0.0.1', [true, true, false]), endpoint('pod1', '10.0.0.1', [true, true, false])],
    ],
  ] as const;
  for (const [name, family, podList, want] of cases) {
    it(`given ${name}, then one slice with the three ports and these endpoints, annotated with the Service's creation, then convergence`, () => {
      const f = syncFixture({
        services: [{ ...service, spec: { ...service.spec, ipFamilies: [family] } }],
        pods: [...podList],
      });
      assert.equal(f.converge(`${NS}/foobar`), 1);
      const [slice] = f.slices();
      assert.deepEqual(slice!.ports, [
        { name: 'tcp-example', protocol: 'TCP', port: 80 },
        { name: 'udp-example', protocol: 'UDP', port: 161 },
        { name: 'sctp-example', protocol: 'SCTP', port: 3456 },
      ]);
      assert.deepEqual(slice!.endpoints, want);
      assert.equal(slice!.metadata.annotations?.[ANNOTATION_TRIGGER_TIME], '2026-11-23T09:00:00Z');
    });
  }
});

describe('syncService: errors', () => {
  it('given a pod on a node not found, then the others are written, with a FailedToUpdateEndpointSlices warning and the sync failing (TestReconcilerPodMissingNode)', () => {
    const lost = { ...newPod(2, NS, true), spec: { containers: [], nodeName: 'node-9' } };
    const result = syncFixture({ services: [createService(NS, 'testing-1')], pods: [newPod(1, NS, true), lost] }).sync(
      KEY,
    );
    assert.deepEqual(verbs(result), { Create: 1, RecordEvent: 1 });
    const event = result.mutations.at(-1)!.event!;
    assert.deepEqual(
      [event.type, event.reason, event.source.component],
      ['Warning', 'FailedToUpdateEndpointSlices', 'endpoint-slice-controller'],
    );
    assert.equal(
      event.message,
      'Error updating Endpoint Slices for Service default/testing-1: skipping Pod pod2 for Service default/testing-1: Node node-9 Not Found',
    );
    assert.equal(result.error, 'skipping Pod pod2 for Service default/testing-1: Node node-9 Not Found');
  });
  it("given the previous sync's create failed, then FailedToUpdateEndpointSlices and the sync fails; a Conflict asks for a fresh read", () => {
    const f = syncFixture({ services: [createService(NS, 'testing-1')] });
    f.cluster.writeError = { resource: 'endpointslices', message: 'boom' };
    const failures = f.write(f.sync(KEY));
    const result = f.sync(KEY, failures);
    assert.deepEqual(
      [verbs(result), result.error],
      [{ RecordEvent: 1 }, 'failed to create EndpointSlice for Service default/testing-1: boom'],
    );
    assert.equal(
      f.sync(
        KEY,
        failures.map((r) => ({ ...r, outcome: 'Conflict' as const })),
      ).freshRead,
      true,
    );
    f.cluster.writeError = undefined;
    assert.equal(f.converge(KEY), 1);
  });
  it('given the previous create was refused for a terminating namespace, then no error (upstream drops the Service)', () => {
    const f = syncFixture({ services: [createService(NS, 'testing-1')] });
    f.cluster.writeError = { resource: 'endpointslices', message: 'forbidden' };
    const failures = f.write(f.sync(KEY)).map((r) => ({ ...r, reason: 'NamespaceTerminating' }));
    assert.equal(f.sync(KEY, failures).error, undefined);
  });
});
