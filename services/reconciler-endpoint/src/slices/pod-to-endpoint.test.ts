import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import type { Endpoint } from '@kcm-bus/k8s/discovery-v1.ts';
import { getAddressTypesForService, getEndpointPorts, podToEndpoint } from './pod-to-endpoint.ts';
import { newNode, newPod, newServiceAndEndpointMeta } from './slices.fixture.ts';

describe('podToEndpoint (utils_test.go TestPodToEndpoint)', () => {
  const { service: svc } = newServiceAndEndpointMeta('foo', 'test');
  const publishNotReady: Service = { ...svc, spec: { ...svc.spec, publishNotReadyAddresses: true } };
  const node1 = {
    ...newNode('node-1'),
    metadata: {
      name: 'node-1',
      uid: 'n1',
      labels: { 'topology.kubernetes.io/zone': 'us-central1-a', 'topology.kubernetes.io/region': 'us-central1' },
    },
  };
  const ready = newPod(1, 'test', true);
  const withHostname: Pod = { ...ready, spec: { ...ready.spec, subdomain: 'foo', hostname: 'example-hostname' } };
  const multiIP: Pod = {
    ...ready,
    status: { ...ready.status, podIPs: [{ ip: '1.2.3.4' }, { ip: '1234::5678:0000:0000:9abc:def0' }] },
  };
  const endpoint = (conditions: [boolean, boolean, boolean], extra: Partial<Endpoint> = {}): Endpoint => ({
    addresses: ['1.2.3.5'],
    conditions: { ready: conditions[0], serving: conditions[1], terminating: conditions[2] },
    targetRef: { kind: 'Pod', namespace: 'test', name: 'pod1' },
    nodeName: 'node-1',
    ...extra,
  });
  const cases: readonly [string, Pod, Service, typeof node1 | undefined, Endpoint][] = [
    ['Ready pod', ready, svc, undefined, endpoint([true, true, false])],
    ['Ready pod + publishNotReadyAddresses', ready, publishNotReady, undefined, endpoint([true, true, false])],
    ['Unready pod', newPod(1, 'test', false), svc, undefined, endpoint([false, false, false])],
    [
      'Unready pod + publishNotReadyAddresses',
      newPod(1, 'test', false),
      publishNotReady,
      undefined,
      endpoint([true, false, false]),
    ],
    ['Ready pod + node labels', ready, svc, node1, endpoint([true, true, false], { zone: 'us-central1-a' })],
    [
      'Multi IP Ready pod + node labels',
      multiIP,
      svc,
      node1,
      endpoint([true, true, false], { addresses: ['1.2.3.4'], zone: 'us-central1-a' }),
    ],
    [
      'Ready pod + hostname',
      withHostname,
      svc,
      node1,
      endpoint([true, true, false], { hostname: 'example-hostname', zone: 'us-central1-a' }),
    ],
    ['Ready terminating pod', newPod(1, 'test', true, true), svc, undefined, endpoint([false, true, true])],
    ['Not ready terminating pod', newPod(1, 'test', false, true), svc, undefined, endpoint([false, false, true])],
  ];
  for (const [name, pod, service, node, want] of cases) {
    it(`given a ${name}, then the endpoint's conditions, zone and hostname are upstream's`, () => {
      assert.deepEqual(podToEndpoint(pod, node, service, 'IPv4'), want);
    });
  }
  it('given a pod with an IPv4 and an irregular IPv6 address, then the IPv6 slice gets the canonical form (TestReconcile1Pod ipv6)', () => {
    assert.deepEqual(podToEndpoint(multiIP, undefined, svc, 'IPv6').addresses, ['1234::5678:0:0:9abc:def0']);
  });
});

describe('getEndpointPorts (utils_test.go TestGetEndpointPorts)', () => {
  const podWith = (containers: Pod['spec']): Pod => ({ metadata: { name: 'p', uid: '' }, spec: containers ?? {} });
  it('given a service port with AppProtocol, then the endpoint port carries it', () => {
    const service: Service = {
      metadata: { name: 's', uid: '' },
      spec: {
        ports: [
          { name: 'http', port: 80, targetPort: 80, protocol: 'TCP', appProtocol: 'example.com/custom-protocol' },
        ],
      },
    };
    assert.deepEqual(getEndpointPorts(service, podWith({ containers: [{ name: '', ports: [] }] })), [
      { name: 'http', port: 80, protocol: 'TCP', appProtocol: 'example.com/custom-protocol' },
    ]);
  });
  it('given a named port and AppProtocol on one port, then the named port resolves to the container port', () => {
    const service: Service = {
      metadata: { name: 's', uid: '' },
      spec: {
        ports: [
          { name: 'http', port: 80, targetPort: 80, protocol: 'TCP' },
          { name: 'https', port: 0, targetPort: 'https', protocol: 'TCP', appProtocol: 'https' },
        ],
      },
    };
    const pod = podWith({
      containers: [{ name: '', ports: [{ name: 'https', containerPort: 443, protocol: 'TCP' }] }],
    });
    assert.deepEqual(getEndpointPorts(service, pod), [
      { name: 'http', port: 80, protocol: 'TCP' },
      { name: 'https', port: 443, protocol: 'TCP', appProtocol: 'https' },
    ]);
  });
  it("given named ports on a restartable init container and an app container, then both resolve; the same name resolves to the app container's", () => {
    const sidecar = {
      name: 'sidecar',
      restartPolicy: 'Always',
      ports: [{ name: 'http-sidecar', containerPort: 8080, protocol: 'TCP' }],
    };
    const app = { name: 'app', ports: [{ name: 'http', containerPort: 8090, protocol: 'TCP' }] };
    const service: Service = {
      metadata: { name: 's', uid: '' },
      spec: {
        ports: [
          { name: 'http-sidecar', port: 8080, targetPort: 8080, protocol: 'TCP' },
          { name: 'http', port: 8090, targetPort: 'http', protocol: 'TCP' },
        ],
      },
    };
    assert.deepEqual(getEndpointPorts(service, podWith({ initContainers: [sidecar], containers: [app] })), [
      { name: 'http-sidecar', port: 8080, protocol: 'TCP' },
      { name: 'http', port: 8090, protocol: 'TCP' },
    ]);
    const same: Service = {
      metadata: { name: 's', uid: '' },
      spec: { ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }] },
    };
    const shadowed = { ...sidecar, ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }] };
    assert.deepEqual(getEndpointPorts(same, podWith({ initContainers: [shadowed], containers: [app] })), [
      { name: 'http', port: 8090, protocol: 'TCP' },
    ]);
  });
  it('given a headless Service without ports, then none; a named port the pod lacks gives none (TestReconcileHeadlessServiceNoPorts)', () => {
    assert.deepEqual(
      getEndpointPorts({ metadata: { name: 's', uid: '' }, spec: { clusterIP: 'None' } }, newPod(1, 'ns', true)),
      [],
    );
    assert.deepEqual(
      getEndpointPorts(
        { metadata: { name: 's', uid: '' }, spec: { ports: [{ port: 80, targetPort: 'web', protocol: 'TCP' }] } },
        newPod(1, 'ns', true),
      ),
      [],
    );
  });
});

describe('getAddressTypesForService (utils_test.go TestSupportedServiceAddressType)', () => {
  const cases = [
    ['v4 service with no ip families (cluster upgrade)', { clusterIP: '10.0.0.10' }, ['IPv4']],
    ['v6 service with no ip families (cluster upgrade)', { clusterIP: '2000::1' }, ['IPv6']],
    ['v4 service', { ipFamilies: ['IPv4'] }, ['IPv4']],
    ['v6 services', { ipFamilies: ['IPv6'] }, ['IPv6']],
    ['v4,v6 service', { ipFamilies: ['IPv4', 'IPv6'] }, ['IPv4', 'IPv6']],
    ['v6,v4 service', { ipFamilies: ['IPv6', 'IPv4'] }, ['IPv6', 'IPv4']],
    ['headless with no selector and no families (old api-server)', { clusterIP: 'None' }, ['IPv4', 'IPv6']],
    [
      'headless with selector and no families (old api-server)',
      { clusterIP: 'None', selector: { foo: 'bar' } },
      ['IPv4', 'IPv6'],
    ],
    [
      'headless with selector with families',
      { clusterIP: 'None', selector: { foo: 'bar' }, ipFamilies: ['IPv4', 'IPv6'] },
      ['IPv4', 'IPv6'],
    ],
  ] as const;
  for (const [name, spec, want] of cases) {
    it(`given a ${name}, then address types ${want.join(',')}`, () => {
      assert.deepEqual(getAddressTypesForService({ metadata: { name: 's', uid: '' }, spec }), want);
    });
  }
});
