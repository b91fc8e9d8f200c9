import type { Node } from '@kcm-bus/k8s/node-v1.ts';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import type { ObjectEvent } from '@kcm-bus/runtime/controller/index.ts';
import { nodeEvent } from './slice-handlers.ts';
import { newNode } from './slices.fixture.ts';
import { addHints } from './topology-hints.ts';
import {
  type EndpointZoneInfo,
  getOverloadedServices,
  removeHints,
  setHints,
  zoneRatiosFromNodes,
} from './topology-cache.ts';

const controlPlane = (n: Node): Node => ({
  ...n,
  metadata: { ...n.metadata, labels: { ...n.metadata.labels, 'node-role.kubernetes.io/control-plane': '' } },
});

describe('TopologyCache.SetNodes (topologycache_test.go TestSetNodes)', () => {
  const cases: readonly [string, Node[], Record<string, number> | undefined][] = [
    ['empty', [], undefined],
    ['single node', [newNode('a', 'zone-a', '1000m')], undefined],
    ['single zone', [newNode('a', 'zone-a', '1000m'), newNode('b', 'zone-a', '1000m')], undefined],
    ['2 zones', [newNode('a', 'zone-a', '1000m'), newNode('b', 'zone-b', '1000m')], { 'zone-a': 0.5, 'zone-b': 0.5 }],
    [
      '2 zones, unready node in 1, ready node in 1',
      [newNode('a', 'zone-a', '1000m', false), newNode('b', 'zone-b', '1000m')],
      undefined,
    ],
    [
      '2 zones, control plane node in 1, ready node in 1',
      [newNode('a', 'zone-a', '1000m'), controlPlane(newNode('b', 'zone-b', '1000m'))],
      undefined,
    ],
    [
      '2 zones, unready node in 1, ready node in 2',
      [newNode('a', 'zone-a', '1000m'), newNode('b', 'zone-b', '1000m'), newNode('c', 'zone-b', '1000m', false)],
      { 'zone-a': 0.5, 'zone-b': 0.5 },
    ],
    [
      '2 zones, control plane node in 1, ready node in 2',
      [newNode('a', 'zone-a', '1000m'), newNode('b', 'zone-b', '1000m'), controlPlane(newNode('c', 'zone-b', '1000m'))],
      { 'zone-a': 0.5, 'zone-b': 0.5 },
    ],
    [
      '3 zones, 4 nodes in 1, 2 nodes in 1, 1 node in 1',
      [
        newNode('a1', 'zone-a', '1000m'),
        newNode('a2', 'zone-a', '1000m'),
        newNode('a3', 'zone-a', '1000m'),
        newNode('a4', 'zone-a', '2000m'),
        newNode('b1', 'zone-b', '3000m'),
        newNode('b2', 'zone-b', '1500m'),
        newNode('c1', 'zone-c', '500m'),
      ],
      { 'zone-a': 0.5, 'zone-b': 0.45, 'zone-c': 0.05 },
    ],
    [
      'a node without a zone (insufficient node info)',
      [newNode('a', 'zone-a', '1'), newNode('b', undefined, '1'), newNode('c', 'zone-b', '1')],
      undefined,
    ],
    [
      'a node without allocatable CPU',
      [newNode('a', 'zone-a', '1'), newNode('b', 'zone-b'), newNode('c', 'zone-b', '1')],
      undefined,
    ],
  ];
  for (const [name, nodes, want] of cases)
    it(`given ${name}, then ratios ${JSON.stringify(want)}`, () => assert.deepEqual(zoneRatiosFromNodes(nodes), want));
});

describe('checkNodeTopologyDistribution (endpointslice_controller_test.go Test_checkNodeTopologyDistribution)', () => {
  let count = 0;
  const node = (zone: string | undefined, cpu: string | undefined, ready = true): Node =>
    newNode(`node-${count++}`, zone, cpu, ready);
  const cases: readonly [string, Node[], EndpointZoneInfo | undefined, number][] = [
    ['empty', [], undefined, 0],
    [
      'lopsided, queue required',
      [node('zone-a', '100m'), node('zone-b', '1000m'), node('zone-c', '2000m')],
      { 'zone-a': 1, 'zone-b': 2, 'zone-c': 3 },
      1,
    ],
    [
      'lopsided but 1 unready, queue required because unready node means 0 CPU in one zone',
      [node('zone-a', '100m', false), node('zone-b', '1000m'), node('zone-c', '2000m')],
      { 'zone-a': 1, 'zone-b': 2, 'zone-c': 3 },
      1,
    ],
    [
      'even zones, uneven endpoint distribution but within threshold, no sync required',
      [node('zone-b', '2000m'), node('zone-b', '2000m'), node('zone-c', '2000m'), node('zone-c', '2000m')],
      { 'zone-b': 5, 'zone-c': 4 },
      0,
    ],
    [
      'even zones but node missing zone, sync required',
      [node('zone-b', '2000m'), node(undefined, '2000m'), node('zone-c', '2000m'), node('zone-c', '2000m')],
      { 'zone-b': 5, 'zone-c': 4 },
      1,
    ],
    [
      'even zones but node missing cpu, sync required',
      [node('zone-b', '2000m'), node('zone-b', undefined), node('zone-c', '2000m'), node('zone-c', '2000m')],
      { 'zone-b': 5, 'zone-c': 4 },
      1,
    ],
    [
      'even zones, uneven endpoint distribution beyond threshold, no sync required',
      [node('zone-b', '2000m'), node('zone-b', '2000m'), node('zone-c', '2000m'), node('zone-c', '2000m')],
      { 'zone-b': 6, 'zone-c': 4 },
      1,
    ],
    [
      '3 uneven zones, matching endpoint distribution, no sync required',
      [node('zone-a', '2000m'), node('zone-b', '1000m'), node('zone-c', '100m')],
      { 'zone-a': 20, 'zone-b': 10, 'zone-c': 1 },
      0,
    ],
    [
      '3 uneven zones, endpoint distribution within threshold but below 1, sync required',
      [node('zone-a', '2000m'), node('zone-b', '1000m'), node('zone-c', '100m')],
      { 'zone-a': 20, 'zone-b': 10, 'zone-c': 0 },
      1,
    ],
  ];
  for (const [name, nodes, ezi, want] of cases) {
    it(`given ${name}, then ${want} Service enqueued`, () => {
      const hints = new Map(ezi === undefined ? [] : [['ns/svc1', setHints(undefined, 'IPv4', ezi)] as const]);
      assert.equal(getOverloadedServices(hints, zoneRatiosFromNodes(nodes)).length, want);
    });
  }
});

describe('node handlers (endpointslice_controller_test.go TestUpdateNode)', () => {
  const readyNoZone = [newNode('node-1', undefined, '100m'), newNode('node-2', undefined, '100m')];
  const zoned = [newNode('node-1', 'zone-a', '100m'), newNode('node-2', 'zone-b', '100m')];
  const si = {
    serviceKey: 'ns/svc',
    addressType: 'IPv4' as const,
    toUpdate: [],
    unchanged: [],
    toCreate: [
      {
        metadata: { name: 'svc-abc', uid: '', namespace: 'ns' },
        addressType: 'IPv4' as const,
        endpoints: [
          { addresses: ['172.18.0.2'], zone: 'zone-a', conditions: { ready: true } },
          { addresses: ['172.18.1.2'], zone: 'zone-b', conditions: { ready: true } },
        ],
      },
    ],
  };
  it('given nodes without zones, then hints fail for insufficient node info; once zoned, they are enabled', () => {
    assert.match(
      addHints(si, zoneRatiosFromNodes(readyNoZone), undefined).events[0]!.message,
      /^Insufficient Node information/,
    );
    assert.match(
      addHints(si, zoneRatiosFromNodes(zoned), undefined).events[0]!.message,
      /^Topology Aware Hints has been enabled/,
    );
  });
  it('given a node update changing neither readiness nor zone, then no check; a zone label added, then overloaded Services are enqueued', () => {
    const hints = new Map([['ns/svc', setHints(undefined, 'IPv4', { 'zone-a': 2 })]]);
    const event = (object: Node, old: Node | undefined): ObjectEvent<Node> => ({
      type: 'Applied',
      key: object.metadata.name,
      object,
      old,
      live: true,
    });
    const renewed = { ...zoned[0]!, metadata: { ...zoned[0]!.metadata, resourceVersion: '9' } };
    assert.deepEqual(nodeEvent(event(renewed, zoned[0]), listerOf(zoned), hints).enqueue, []);
    assert.deepEqual(nodeEvent(event(zoned[0]!, readyNoZone[0]), listerOf(zoned), hints).enqueue, ['ns/svc']);
    assert.deepEqual(nodeEvent(event(zoned[0]!, undefined), listerOf(zoned), hints).enqueue, ['ns/svc']);
  });
});

describe('TopologyCache.SetHints and RemoveHints', () => {
  it('given hints for two address types, then removing one keeps the other unpopulated, removing both drops the entry', () => {
    const both = setHints(setHints(undefined, 'IPv4', { a: 1 }), 'IPv6', { a: 1 });
    assert.deepEqual(removeHints(both, 'IPv4'), { populated: false, byAddressType: { IPv6: { a: 1 } } });
    assert.equal(removeHints(removeHints(both, 'IPv4'), 'IPv6'), undefined);
  });
});
