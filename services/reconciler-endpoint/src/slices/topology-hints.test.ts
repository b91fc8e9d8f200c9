import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Endpoint, EndpointSlice } from '@kcm-bus/k8s/discovery-v1.ts';
import type { Allocation } from './topology-cache.ts';
import { addHints, getHintsByZone, type SliceInfo } from './topology-hints.ts';
import { getGivingAndReceivingZones, redistributeHints } from './topology-redistribute.ts';

const ep = (address: string, zone: string, ready: boolean | 'unknown' = true, hint?: string): Endpoint => ({
  addresses: [address],
  zone,
  ...(ready !== 'unknown' ? { conditions: { ready } } : {}),
  ...(hint !== undefined ? { hints: { forZones: [{ name: hint }] } } : {}),
});
const slice = (...endpoints: Endpoint[]): EndpointSlice => ({
  metadata: { name: '', uid: '' },
  addressType: 'IPv4',
  endpoints,
});
const info = (toCreate: EndpointSlice[], toUpdate: EndpointSlice[] = []): SliceInfo => ({
  serviceKey: 'ns/svc',
  addressType: 'IPv4',
  toCreate,
  toUpdate,
  unchanged: [],
});
const hintsOf = (slices: readonly EndpointSlice[]): (string | undefined)[][] =>
  slices.map((s) => (s.endpoints ?? []).map((e) => e.hints?.forZones?.[0]?.name));
const allocations = (desired: Record<string, number>, maximum = 0): Map<string, Allocation> =>
  new Map(Object.entries(desired).map(([z, d]) => [z, { minimum: 0, maximum, desired: d }]));

describe('TopologyCache.AddHints (topologycache_test.go TestAddHints)', () => {
  it('given no slices and no zone ratios, then TopologyAwareHintsDisabled for insufficient node information ("empty")', () => {
    const r = addHints(info([]), undefined, undefined);
    assert.deepEqual(r.events, [
      {
        type: 'Warning',
        reason: 'TopologyAwareHintsDisabled',
        message:
          'Insufficient Node information: allocatable CPU or zone not specified on one or more nodes, addressType: IPv4',
      },
    ]);
    assert.equal(r.state, undefined);
  });
  it('given a slice to create and no zone ratios, then it stays without hints ("slice to create, no zone ratios")', () => {
    const r = addHints(info([slice(ep('10.1.2.3', 'zone-a'))]), undefined, undefined);
    assert.deepEqual(hintsOf(r.toCreate), [[undefined]]);
  });
  it('given 2 endpoints and 3 zones, then disabled for an insufficient number of endpoints ("zone ratios require 3")', () => {
    const r = addHints(
      info([slice(ep('10.1.2.3', 'zone-a'), ep('10.1.2.4', 'zone-b'))]),
      { 'zone-a': 0.3, 'zone-b': 0.4, 'zone-c': 0.3 },
      undefined,
    );
    assert.equal(r.events[0]!.message, 'Insufficient number of endpoints (2 endpoints, 3 zones), addressType: IPv4');
    assert.deepEqual(hintsOf(r.toCreate), [[undefined, undefined]]);
  });
  it('given 2 ready, 1 unready and 1 unknown endpoint in 2 zones, then same-zone hints for the ready ones and TopologyAwareHintsEnabled', () => {
    const s = slice(
      ep('10.1.2.3', 'zone-a'),
      ep('10.1.2.4', 'zone-b'),
      ep('10.1.2.5', 'zone-b', false),
      ep('10.1.2.6', 'zone-b', 'unknown'),
    );
    const r = addHints(info([s]), { 'zone-a': 0.45, 'zone-b': 0.55 }, undefined);
    assert.deepEqual(hintsOf(r.toCreate), [['zone-a', 'zone-b', undefined, undefined]]);
    assert.deepEqual(r.events, [
      {
        type: 'Normal',
        reason: 'TopologyAwareHintsEnabled',
        message: 'Topology Aware Hints has been enabled, addressType: IPv4',
      },
    ]);
    assert.deepEqual(r.state, { populated: true, byAddressType: { IPv4: { 'zone-a': 1, 'zone-b': 1 } } });
    assert.deepEqual(
      addHints(info([s]), { 'zone-a': 0.45, 'zone-b': 0.55 }, r.state).events,
      [],
      'once populated, no second event',
    );
  });
  it('given slices to create and update within a 3 zone threshold, then one zone-a endpoint is hinted for zone-b', () => {
    const create = [
      slice(ep('10.1.2.3', 'zone-a'), ep('10.1.2.4', 'zone-b')),
      slice(ep('10.1.3.3', 'zone-c'), ep('10.1.3.4', 'zone-c'), ep('10.1.3.4', 'zone-a')),
    ];
    const update = [
      slice(ep('10.2.2.3', 'zone-a'), ep('10.2.2.4', 'zone-a')),
      slice(ep('10.2.3.3', 'zone-b'), ep('10.2.3.4', 'zone-c'), ep('10.2.3.4', 'zone-a')),
    ];
    const r = addHints(info(create, update), { 'zone-a': 0.35, 'zone-b': 0.35, 'zone-c': 0.3 }, undefined);
    assert.deepEqual(hintsOf(r.toCreate), [
      ['zone-b', 'zone-b'],
      ['zone-c', 'zone-c', 'zone-a'],
    ]);
    assert.deepEqual(hintsOf(r.toUpdate), [
      ['zone-a', 'zone-a'],
      ['zone-b', 'zone-c', 'zone-a'],
    ]);
    assert.deepEqual(r.state?.byAddressType.IPv4, { 'zone-a': 4, 'zone-b': 3, 'zone-c': 3 });
  });
  it('given a ready endpoint without zone, then every hint is removed, with "One or more endpoints do not have a zone specified"', () => {
    const s = slice(ep('1', 'zone-a', true, 'zone-a'), ep('2', 'zone-a'), ep('3', 'zone-b'), {
      addresses: ['4'],
      conditions: { ready: true },
    });
    const r = addHints(
      info([s]),
      { 'zone-a': 0.5, 'zone-b': 0.5 },
      { populated: true, byAddressType: { IPv4: { 'zone-a': 2 } } },
    );
    assert.deepEqual(
      r.events.map((e) => e.message),
      ['One or more endpoints do not have a zone specified, addressType: IPv4'],
    );
    assert.deepEqual(hintsOf(r.toCreate), [[undefined, undefined, undefined, undefined]]);
    assert.equal(r.state, undefined);
  });
});

describe('getGivingAndReceivingZones (topologycache/utils_test.go Test_getGivingAndReceivingZones)', () => {
  const cases: readonly [
    string,
    Record<string, number>,
    Record<string, number>,
    Record<string, number>,
    Record<string, number>,
  ][] = [
    ['empty', {}, {}, {}, {}],
    [
      'simple allocation with no need for rebalancing',
      { 'zone-a': 1.2, 'zone-b': 1.1, 'zone-c': 1.0 },
      { 'zone-a': 1, 'zone-b': 1, 'zone-c': 1 },
      {},
      {},
    ],
    [
      'preference for same zone even when giving an extra endpoint would result in slightly better distribution',
      { 'zone-a': 5.1, 'zone-b': 5.1, 'zone-c': 5.8 },
      { 'zone-a': 16 },
      { 'zone-a': 10 },
      { 'zone-b': 5, 'zone-c': 5 },
    ],
    [
      'when 2 zones need < 1 endpoint, give to zone that needs endpoint most',
      { 'zone-a': 5.0, 'zone-b': 5.6, 'zone-c': 5.4 },
      { 'zone-a': 16 },
      { 'zone-a': 11 },
      { 'zone-b': 6, 'zone-c': 5 },
    ],
    [
      'when 2 zones have extra endpoints, give from zone with most extra',
      { 'zone-a': 5.0, 'zone-b': 5.6, 'zone-c': 5.4 },
      { 'zone-b': 8, 'zone-c': 8 },
      { 'zone-b': 2, 'zone-c': 3 },
      { 'zone-a': 5 },
    ],
    [
      'ensure function can handle unexpected data (more allocated than allocations)',
      { 'zone-a': 5, 'zone-b': 5, 'zone-c': 5 },
      { 'zone-a': 6, 'zone-b': 6, 'zone-c': 6 },
      {},
      {},
    ],
    [
      'ensure function can handle unexpected data (negative allocations)',
      { 'zone-a': -5, 'zone-b': -5, 'zone-c': -5 },
      { 'zone-a': 6, 'zone-b': 6, 'zone-c': 6 },
      {},
      {},
    ],
    [
      'ensure function can handle unexpected data (negative allocated)',
      { 'zone-a': 5, 'zone-b': 5, 'zone-c': 5 },
      { 'zone-a': -4, 'zone-b': -3, 'zone-c': -2 },
      {},
      {},
    ],
    [
      'ensure function can handle unexpected data (negative for 1 zone)',
      { 'zone-a': 5, 'zone-b': 5, 'zone-c': 5 },
      { 'zone-a': -40, 'zone-b': 20, 'zone-c': 20 },
      { 'zone-b': 15, 'zone-c': 15 },
      { 'zone-a': 30 },
    ],
  ];
  for (const [name, desired, allocated, giving, receiving] of cases) {
    it(`given ${name}, then giving ${JSON.stringify(giving)} and receiving ${JSON.stringify(receiving)}`, () => {
      const r = getGivingAndReceivingZones(allocations(desired), new Map(Object.entries(allocated)));
      assert.deepEqual([Object.fromEntries(r.giving), Object.fromEntries(r.receiving)], [giving, receiving]);
    });
  }
});

describe('redistributeHints (topologycache/utils_test.go Test_redistributeHints)', () => {
  it('given no slices, then no redistribution ("empty")', () =>
    assert.deepEqual(redistributeHints([], new Map(), new Map()), new Map()));
  it('given a single endpoint of a giving zone, then it is hinted for the receiving zone ("single endpoint")', () => {
    const slices = [{ endpoints: [ep('1', 'zone-a', true, 'zone-a')] }];
    assert.deepEqual(
      Object.fromEntries(redistributeHints(slices, new Map([['zone-a', 1]]), new Map([['zone-b', 1]]))),
      { 'zone-b': 1, 'zone-a': -1 },
    );
    assert.deepEqual(slices[0]!.endpoints[0]!.hints, { forZones: [{ name: 'zone-b' }] });
  });
  it('given endpoints from 1 zone to give to 2 others, then one each ("endpoints from 1 zone redistributed to 2 other zones")', () => {
    const slices = [
      {
        endpoints: [
          ep('1', 'zone-a', true, 'zone-a'),
          ep('2', 'zone-a', true, 'zone-a'),
          ep('3', 'zone-a', true, 'zone-a'),
        ],
      },
    ];
    const r = redistributeHints(
      slices,
      new Map([['zone-a', 2]]),
      new Map([
        ['zone-b', 1],
        ['zone-c', 1],
      ]),
    );
    assert.deepEqual(Object.fromEntries(r), { 'zone-a': -2, 'zone-b': 1, 'zone-c': 1 });
  });
});

describe('getHintsByZone (topologycache/utils_test.go Test_getHintsByZone)', () => {
  const max = (maximum: number, ...zones: string[]): Map<string, Allocation> =>
    new Map(zones.map((z) => [z, { minimum: 0, maximum, desired: 0 }]));
  const cases: readonly [
    string,
    EndpointSlice,
    Record<string, number>,
    Map<string, Allocation>,
    Record<string, number> | undefined,
  ][] = [
    ['empty', slice(), {}, new Map(), {}],
    ['single zone hint', slice(ep('1', 'zone-a', true, 'zone-a')), { 'zone-a': 1 }, max(3, 'zone-a'), { 'zone-a': 1 }],
    [
      'single zone hint with 1 unready endpoint and 1 unknown endpoint',
      slice(
        ep('1', 'zone-a', true, 'zone-a'),
        ep('2', 'zone-a', false, 'zone-a'),
        ep('3', 'zone-a', 'unknown', 'zone-a'),
      ),
      { 'zone-a': 1 },
      max(3, 'zone-a'),
      { 'zone-a': 1 },
    ],
    [
      'multiple zone hints',
      slice(ep('1', 'zone-a', true, 'zone-a'), ep('2', 'zone-a', true, 'zone-b'), ep('3', 'zone-b', true, 'zone-b')),
      { 'zone-a': 1, 'zone-b': 1, 'zone-c': 1 },
      max(3, 'zone-a', 'zone-b', 'zone-c'),
      { 'zone-a': 1, 'zone-b': 2 },
    ],
    [
      'invalid by zones that no longer requires any allocations',
      slice(ep('1', 'zone-a', true, 'zone-non-existent')),
      { 'zone-a': 1 },
      max(3, 'zone-a'),
      undefined,
    ],
    ['invalid by endpoints with nil hints', slice(ep('1', 'zone-a')), {}, max(3, 'zone-a'), undefined],
    [
      'invalid by endpoint with no hints',
      slice({ ...ep('1', 'zone-a'), hints: { forZones: [] } }),
      {},
      max(3, 'zone-a'),
      undefined,
    ],
    [
      'invalid by hints that would make minimum allocations impossible',
      slice(ep('1', 'zone-a', true, 'zone-a'), ep('2', 'zone-a', true, 'zone-a')),
      { 'zone-a': 1 },
      max(2, 'zone-a'),
      undefined,
    ],
  ];
  for (const [name, s, allocated, allocs, want] of cases) {
    it(`given ${name}, then ${JSON.stringify(want)}`, () => {
      const got = getHintsByZone(s, new Map(Object.entries(allocated)), allocs);
      assert.deepEqual(got === undefined ? undefined : Object.fromEntries(got), want);
    });
  }
});
