import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import { type EndpointSlice, LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from '@kcm-bus/k8s/discovery-v1.ts';
import { ANNOTATION_TOPOLOGY_AWARE_HINTS, MANAGED_BY } from './endpointslice-controller.ts';
import { podToEndpoint } from './pod-to-endpoint.ts';
import {
  expectMetrics,
  newEmptyEndpointSlice,
  newNode,
  newPod,
  newServiceAndEndpointMeta,
  reconcileFixture,
} from './slices.fixture.ts';
import { zoneRatiosFromNodes } from './topology-cache.ts';

const { service: svc, meta } = newServiceAndEndpointMeta('foo', 'testing');
const annotated = (value: string, trafficDistribution?: string): Service => ({
  ...svc,
  metadata: { ...svc.metadata, annotations: { [ANNOTATION_TOPOLOGY_AWARE_HINTS]: value } },
  spec: { ...svc.spec, ...(trafficDistribution !== undefined ? { trafficDistribution } : {}) },
});
const onNode = (p: Pod, nodeName: string): Pod => ({ ...p, spec: { ...p.spec, nodeName } });
const zoneHints = (slices: readonly EndpointSlice[]): { byZone: Record<string, number>; crossZone: number } => {
  const byZone: Record<string, number> = {};
  let crossZone = 0;
  for (const e of slices.flatMap((s) => s.endpoints ?? [])) {
    const hint = e.hints?.forZones?.length === 1 ? e.hints.forZones[0]!.name : '';
    byZone[hint] = (byZone[hint] ?? 0) + 1;
    if (hint !== '' && hint !== e.zone) crossZone++;
  }
  return { byZone, crossZone };
};

describe('topology-mode Auto (reconciler_test.go TestReconcileTopology)', () => {
  const zones = ['zone-a', 'zone-b', 'zone-c'];
  const nodes = zones.flatMap((zone) =>
    Array.from({ length: 10 }, (_, j) => newNode(`node-${zone}-${j}`, zone, '100m')),
  );
  const podList = zones.flatMap((zone, i) =>
    Array.from({ length: 10 }, (_, j) => onNode(newPod(i * 100 + j, 'testing', true), `node-${zone}-${j}`)),
  );
  const node = (p: Pod) => nodes.find((n) => n.metadata.name === p.spec?.nodeName);
  const slicePods: Record<string, Pod[]> = {
    'zone-a-b': [7, 8, 16, 17, 18].map((i) => podList[i]!),
    'zone-a-c': [5, 6, 25, 26].map((i) => podList[i]!),
    'zone-c': [27, 28, 29].map((i) => podList[i]!),
  };
  const existing = (name: string): EndpointSlice => {
    const base = newEmptyEndpointSlice(
      0,
      'testing',
      meta,
      svc,
      slicePods[name]!.map((p) => podToEndpoint(p, node(p), svc, 'IPv4')),
    );
    return {
      ...base,
      metadata: {
        ...base.metadata,
        name,
        uid: `uid-${name}`,
        labels: { [LABEL_MANAGED_BY]: MANAGED_BY, [LABEL_SERVICE_NAME]: 'foo' },
      },
    };
  };
  const cases = [
    [
      'hintsAnnotation == auto',
      'auto',
      ['zone-c'],
      { 'zone-a': 1, 'zone-b': 1, 'zone-c': 1 },
      2,
      1,
      'TopologyAwareHintsEnabled',
    ],
    [
      'hintsAnnotation==auto, ratio beyond threshold',
      'auto',
      ['zone-a-c'],
      { '': 4 },
      0,
      0,
      'TopologyAwareHintsDisabled',
    ],
    [
      'hintsAnnotation==Auto, more slices and endpoints',
      'Auto',
      ['zone-a-c', 'zone-a-b'],
      { 'zone-a': 3, 'zone-b': 3, 'zone-c': 3 },
      1,
      2,
      'TopologyAwareHintsEnabled',
    ],
    [
      'hintsAnnotation==disabled, more slices and endpoints',
      'disabled',
      ['zone-a-c', 'zone-a-b'],
      { '': 9 },
      0,
      0,
      undefined,
    ],
  ] as const;
  for (const [name, value, names, byZone, crossZone, updated, event] of cases) {
    it(`given topology enabled, ${name}, then hints ${JSON.stringify(byZone)} with ${crossZone} cross-zone and ${updated} updates, then convergence`, () => {
      const f = reconcileFixture({
        service: annotated(value),
        pods: names.flatMap((n) => slicePods[n]!),
        nodes,
        slices: names.map(existing),
        zoneRatios: zoneRatiosFromNodes(nodes),
      });
      const r = f.reconcile();
      assert.deepEqual(zoneHints(f.slices()), { byZone, crossZone });
      assert.deepEqual(
        r.events.map((e) => e.event?.reason),
        event === undefined ? [] : [event],
      );
      const total = names.reduce((n, s) => n + slicePods[s]!.length, 0);
      const topology =
        value.toLowerCase() === 'auto' ? { slicesChangedPerSyncTopology: updated } : { slicesChangedPerSync: updated };
      expectMetrics(r.metrics, {
        desiredSlices: 1,
        actualSlices: names.length,
        desiredEndpoints: total,
        numUpdated: updated,
        ...topology,
      });
      f.converged(event === 'TopologyAwareHintsDisabled' ? [event] : []);
    });
  }
  it('given hints populated and the annotation removed, then TopologyAwareHintsDisabled and the hints removed', () => {
    const f = reconcileFixture({
      service: annotated('auto'),
      pods: slicePods['zone-c']!,
      nodes,
      slices: [existing('zone-c')],
      zoneRatios: zoneRatiosFromNodes(nodes),
    });
    f.reconcile();
    const r = f.reconcile({ service: annotated('disabled') });
    assert.deepEqual(
      r.events.map((e) => [e.event?.reason, e.event?.message]),
      [['TopologyAwareHintsDisabled', 'Topology Aware Hints has been disabled, addressType: IPv4']],
    );
    assert.deepEqual(zoneHints(f.slices()).byZone, { '': 3 });
    f.converged();
  });
});

describe('spec.trafficDistribution (reconciler_test.go TestReconcile_TrafficDistribution)', () => {
  const nodes = [0, 1, 2].map((i) => newNode(`node-${i}`, `zone-${'abc'[i]}`, '100m'));
  const podList = [0, 1, 1, 1, 2, 2].map((n, i) => onNode(newPod(i, 'testing', true), `node-${n}`));
  const cases = [
    [
      'trafficDistribution=PreferClose, topologyAnnotation=Disabled',
      'PreferClose',
      'Disabled',
      { 'zone-a': 1, 'zone-b': 3, 'zone-c': 2 },
      0,
      { slicesChangedPerSyncTrafficDist: 1 },
    ],
    [
      'trafficDistribution=PreferClose, topologyAnnotation=Auto',
      'PreferClose',
      'Auto',
      { 'zone-a': 2, 'zone-b': 2, 'zone-c': 2 },
      1,
      { slicesChangedPerSyncTopology: 1 },
    ],
    ['trafficDistribution=nil, topologyAnnotation=<empty>', undefined, '', { '': 6 }, 0, { slicesChangedPerSync: 1 }],
    [
      'trafficDistribution=PreferSameNode, PSTD enabled',
      'PreferSameNode',
      'Disabled',
      { 'zone-a': 1, 'zone-b': 3, 'zone-c': 2 },
      0,
      { slicesChangedPerSyncTrafficDist: 1 },
    ],
    [
      'trafficDistribution=PreferSameZone, PSTD locked on in v1.37',
      'PreferSameZone',
      'Disabled',
      { 'zone-a': 1, 'zone-b': 3, 'zone-c': 2 },
      0,
      { slicesChangedPerSyncTrafficDist: 1 },
    ],
  ] as const;
  for (const [name, td, annotation, byZone, crossZone, changed] of cases) {
    it(`given ${name}, then zone hints ${JSON.stringify(byZone)}, then convergence`, () => {
      const f = reconcileFixture({
        service: annotated(annotation, td),
        pods: podList,
        nodes,
        zoneRatios: zoneRatiosFromNodes(nodes),
      });
      const r = f.reconcile();
      assert.deepEqual(zoneHints(f.slices()), { byZone, crossZone });
      if (td === 'PreferSameNode')
        assert.deepEqual(
          f.slices()[0]!.endpoints!.map((e) => e.hints?.forNodes?.[0]?.name),
          podList.map((p) => p.spec?.nodeName),
        );
      assert.equal(r.metrics.trafficDistribution, annotation === 'Auto' ? undefined : td);
      expectMetrics(r.metrics, {
        desiredSlices: 1,
        actualSlices: 1,
        desiredEndpoints: 6,
        addedPerSync: 6,
        numCreated: 1,
        ...changed,
      });
      f.converged();
    });
  }
});
