import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import { ANNOTATION_TRIGGER_TIME } from './endpoints-controller.ts';
import {
  addressCounts,
  endpointsFixture,
  newService,
  storedEndpoints,
  T0,
  testPod,
  written,
} from './endpoints.fixture.ts';
import { endpointPortFromServicePort, podToEndpointAddressForService } from './endpoint-address.ts';

describe('syncService addresses (TestSyncServiceAddresses)', () => {
  const makePod = (phase: string, ready: boolean, terminating: boolean): Pod => ({
    metadata: {
      namespace: 'ns',
      name: 'fakepod',
      uid: 'u1',
      labels: { foo: 'bar' },
      ...(terminating ? { deletionTimestamp: T0.toISOString() } : {}),
    },
    spec: { containers: [{ name: 'container-1' }] },
    status: {
      phase,
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
      podIP: '10.1.1.1',
      podIPs: [{ ip: '10.1.1.1' }],
    },
  });
  const cases = [
    ['pod running phase', 'Running', true, false, false, 1, 0],
    ['pod running phase being deleted', 'Running', true, true, false, 0, 0],
    ['pod unknown phase container ready', 'Unknown', true, false, false, 1, 0],
    ['pod unknown phase container ready being deleted', 'Unknown', true, true, false, 0, 0],
    ['pod pending phase container ready', 'Pending', true, false, false, 1, 0],
    ['pod pending phase container ready being deleted', 'Pending', true, true, false, 0, 0],
    ['pod unknown phase container not ready', 'Unknown', false, false, false, 0, 1],
    ['pod pending phase container not ready', 'Pending', false, false, false, 0, 1],
    ['pod failed phase', 'Failed', false, false, false, 0, 0],
    ['pod succeeded phase', 'Succeeded', false, false, false, 0, 0],
    ['pod running phase and tolerate unready', 'Running', false, false, true, 1, 0],
    ['pod running phase and tolerate unready being deleted', 'Running', false, true, true, 1, 0],
    ['pod unknown phase and tolerate unready', 'Unknown', false, false, true, 1, 0],
    ['pod unknown phase and tolerate unready being deleted', 'Unknown', false, true, true, 1, 0],
    ['pod pending phase and tolerate unready', 'Pending', false, false, true, 1, 0],
    ['pod pending phase and tolerate unready being deleted', 'Pending', false, true, true, 1, 0],
    ['pod failed phase and tolerate unready', 'Failed', false, false, true, 0, 0],
    ['pod succeeded phase and tolerate unready endpoints', 'Succeeded', false, false, true, 0, 0],
  ] as const;
  for (const [name, phase, ready, terminating, tolerate, wantReady, wantNotReady] of cases) {
    it(`given ${name}, then ${wantReady} ready and ${wantNotReady} not ready`, () => {
      const svc = newService('ns', 'foo', {
        selector: { foo: 'bar' },
        publishNotReadyAddresses: tolerate,
        type: 'ClusterIP',
        clusterIP: '1.1.1.1',
        ports: [{ port: 80 }],
        ipFamilies: ['IPv4'],
      });
      const f = endpointsFixture({ services: [svc], pods: [makePod(phase, ready, terminating)] });
      assert.deepEqual(addressCounts(written(f.sync('ns/foo'))?.subsets), { ready: wantReady, notReady: wantNotReady });
      assert.equal(f.converge('ns/foo'), 1);
    });
  }
});

describe('podToEndpointAddressForService (TestPodToEndpointAddressForService)', () => {
  const cases = [
    ['v4 service, in a single stack cluster', ['IPv4'], '10.0.0.1', ['IPv4'], 'IPv4'],
    ['v4 service, in a dual stack cluster', ['IPv4', 'IPv6'], '10.0.0.1', ['IPv4'], 'IPv4'],
    ['v4 service, in a dual stack ipv6-primary cluster', ['IPv6', 'IPv4'], '10.0.0.1', ['IPv4'], 'IPv4'],
    ['v4 headless service, in a single stack cluster', ['IPv4'], 'None', ['IPv4'], 'IPv4'],
    ['v4 headless service, in a dual stack cluster', ['IPv4', 'IPv6'], 'None', ['IPv4'], 'IPv4'],
    ['v6 service, in a dual stack cluster', ['IPv4', 'IPv6'], '3000::1', ['IPv6'], 'IPv6'],
    ['v6 headless service, in a single stack cluster', ['IPv6'], 'None', ['IPv6'], 'IPv6'],
    ['v6 headless service, in a dual stack cluster', ['IPv4', 'IPv6'], 'None', ['IPv6'], 'IPv6'],
    ['v6 service, in a v4 only cluster', ['IPv4'], '3000::1', ['IPv6'], undefined],
  ] as const;
  for (const [name, families, clusterIP, ipFamilies, want] of cases) {
    it(`given a ${name} and a pod whose first IP has a leading zero (addBadIPPod), then ${want ?? 'no address'}`, () => {
      const good = testPod('test', 0, 1, true, families);
      const bad = `0${good.status!.podIPs![0]!.ip}`;
      const pod = {
        ...good,
        spec: { ...good.spec, nodeName: 'node-1' },
        status: { ...good.status, podIP: bad, podIPs: [{ ip: bad }, ...good.status!.podIPs!.slice(1)] },
      };
      const got = podToEndpointAddressForService(newService('test', 'svc', { clusterIP, ipFamilies }), pod);
      if (want === undefined) return assert.equal(got, undefined);
      assert.equal(got!.ip.includes(':'), want === 'IPv6');
      assert.ok(!got!.ip.startsWith('0'));
      assert.deepEqual([got!.nodeName, got!.targetRef], ['node-1', { kind: 'Pod', namespace: 'test', name: 'pod0' }]);
    });
  }
  it('given a Service without ipFamilies, then the family of its cluster IP, else (headless) of the pod IP (…EmptyIPFamilies)', () => {
    const pod = testPod('test', 0, 1, true, ['IPv6', 'IPv4']);
    assert.equal(
      podToEndpointAddressForService(newService('test', 'svc', { clusterIP: '10.0.0.1' }), pod)?.ip,
      '1.2.3.4',
    );
    assert.equal(podToEndpointAddressForService(newService('test', 'svc', { clusterIP: 'None' }), pod)?.ip, '2000::4');
  });
});

describe('ports, hostnames and the trigger time', () => {
  it('given a service port with or without appProtocol, then the endpoint port copies it (TestEndpointPortFromServicePort)', () => {
    assert.deepEqual(endpointPortFromServicePort({ name: 'http', port: 80, protocol: 'TCP' }, 8080), {
      name: 'http',
      port: 8080,
      protocol: 'TCP',
    });
    assert.deepEqual(
      endpointPortFromServicePort({ name: 'http', port: 80, protocol: 'TCP', appProtocol: 'http' }, 8080),
      { name: 'http', port: 8080, protocol: 'TCP', appProtocol: 'http' },
    );
  });
  it('given a named targetPort that maps to different container ports, then two subsets; a pod without it serves no port', () => {
    const withPort = (id: number, port: number): Pod => {
      const p = testPod('ns', id, 0, true);
      return {
        ...p,
        spec: { containers: [{ name: 'c', ports: [{ name: 'web', containerPort: port, protocol: 'TCP' }] }] },
      };
    };
    const f = endpointsFixture({
      services: [
        newService('ns', 'foo', {
          selector: { foo: 'bar' },
          clusterIP: '10.0.0.1',
          ports: [{ port: 80, protocol: 'TCP', targetPort: 'web' }],
        }),
      ],
      pods: [withPort(0, 8080), withPort(1, 9090), testPod('ns', 2, 0, true)],
    });
    const subsets = written(f.sync('ns/foo'))!.subsets!;
    assert.deepEqual(subsets.map((s) => [s.addresses!.map((a) => a.ip), s.ports!.map((p) => p.port)]).sort(), [
      [['1.2.3.4'], [8080]],
      [['1.2.3.5'], [9090]],
    ]);
    assert.equal(f.converge('ns/foo'), 1);
  });
  it('given a pod whose subdomain is the Service, then its address carries the hostname; another subdomain does not', () => {
    const named = (id: number, subdomain: string): Pod => {
      const p = testPod('ns', id, 0, true);
      return { ...p, spec: { ...p.spec, hostname: `host${id}`, subdomain } };
    };
    const f = endpointsFixture({
      services: [newService('ns', 'foo', { selector: { foo: 'bar' }, clusterIP: 'None' })],
      pods: [named(0, 'foo'), named(1, 'other')],
    });
    assert.deepEqual(
      written(f.sync('ns/foo'))!.subsets![0]!.addresses!.map((a) => a.hostname),
      ['host0', undefined],
    );
  });
  it('given a new Service, then the annotation is its creation time; a changed one is overwritten; nothing new clears it (TestLastTriggerChangeTimeAnnotation*)', () => {
    const svc = {
      ...newService('other', 'foo', {
        selector: { foo: 'bar' },
        ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }],
      }),
      metadata: { namespace: 'other', name: 'foo', uid: 's', creationTimestamp: '2026-11-23T09:00:00Z' },
    };
    const f = endpointsFixture({
      services: [svc],
      pods: [testPod('other', 0, 1, true)],
      endpoints: [storedEndpoints('other', 'foo', [], { annotations: { [ANNOTATION_TRIGGER_TIME]: 'old' } })],
    });
    assert.equal(written(f.sync('other/foo'))?.metadata.annotations?.[ANNOTATION_TRIGGER_TIME], '2026-11-23T09:00:00Z');
    assert.equal(written(f.sync('other/foo'))?.metadata.annotations?.[ANNOTATION_TRIGGER_TIME], undefined);
  });
});
