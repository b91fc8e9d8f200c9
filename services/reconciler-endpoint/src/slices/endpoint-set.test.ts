import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Endpoint } from '@kcm-bus/k8s/discovery-v1.ts';
import { endpointHash, endpointSetOf, endpointsEqualBeyondHash, popAny, portMapKey } from './endpoint-set.ts';

const ep1: Endpoint = {
  addresses: ['10.0.0.1'],
  conditions: { ready: true },
  nodeName: 'node-1',
  zone: 'zone-1',
  targetRef: { kind: 'Pod', namespace: 'default', name: 'pod0', resourceVersion: '1' },
};

describe('EndpointsEqualBeyondHash (controller_utils_test.go TestEndpointsEqualBeyondHash)', () => {
  const cases: readonly [string, Endpoint, boolean][] = [
    ['No change', { ...ep1 }, true],
    ['NodeName changed', { ...ep1, nodeName: 'node-2' }, false],
    ['Zone changed', { ...ep1, zone: 'zone-2' }, false],
    ['Ready condition changed', { ...ep1, conditions: { ready: false } }, false],
    ['Serving condition changed from nil to true', { ...ep1, conditions: { ready: true, serving: true } }, false],
    ['Pod name changed', { ...ep1, targetRef: { ...ep1.targetRef, name: 'pod1' } }, false],
    ['Pod resourceVersion changed', { ...ep1, targetRef: { ...ep1.targetRef, resourceVersion: '2' } }, true],
    ['Pod resourceVersion removed', { ...ep1, targetRef: { kind: 'Pod', namespace: 'default', name: 'pod0' } }, true],
    ['Hints changed (the topology step decides them)', { ...ep1, hints: { forZones: [{ name: 'zone-9' }] } }, true],
  ];
  for (const [name, ep2, want] of cases)
    it(`given ${name}, then ${want}`, () => assert.equal(endpointsEqualBeyondHash(ep1, ep2), want));
});

describe('endpoint hashing (endpointset.go hashEndpoint)', () => {
  it('given the same addresses in another order and other conditions, then the same hash; another hostname or target, another', () => {
    const two: Endpoint = { ...ep1, addresses: ['10.0.0.2', '10.0.0.1'] };
    assert.equal(
      endpointHash(two),
      endpointHash({ ...two, addresses: ['10.0.0.1', '10.0.0.2'], conditions: { ready: false } }),
    );
    assert.notEqual(endpointHash(ep1), endpointHash({ ...ep1, hostname: 'h' }));
    assert.notEqual(
      endpointHash(ep1),
      endpointHash({ ...ep1, targetRef: { kind: 'Pod', namespace: 'default', name: 'pod1' } }),
    );
  });
  it('given an EndpointSet, then PopAny takes the first inserted, so a replay packs the same slices', () => {
    const set = endpointSetOf([ep1, { ...ep1, addresses: ['10.0.0.9'] }]);
    assert.deepEqual(popAny(set)?.addresses, ['10.0.0.1']);
    assert.deepEqual(popAny(set)?.addresses, ['10.0.0.9']);
    assert.equal(popAny(set), undefined);
  });
});

describe('NewPortMapKey (controller_utils_test.go TestNewPortMapKey_NilVsEmptySlice)', () => {
  it('given nil and empty port lists, then the same key; the same ports in another order, the same key', () => {
    assert.equal(portMapKey(undefined), portMapKey([]));
    const [a, b] = [
      { name: 'a', port: 80, protocol: 'TCP' },
      { name: 'b', port: 81, protocol: 'UDP' },
    ];
    assert.equal(portMapKey([a, b]), portMapKey([b, a]));
  });
  it('given a port whose name is "" and one without a name, then different keys (a pointer to "" is not nil)', () => {
    assert.notEqual(portMapKey([{ name: '', port: 80 }]), portMapKey([{ port: 80 }]));
  });
});
