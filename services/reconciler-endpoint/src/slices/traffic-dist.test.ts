import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Endpoint, EndpointHints, EndpointSlice } from '@kcm-bus/k8s/discovery-v1.ts';
import { reconcileHints } from './traffic-dist.ts';

const ep = (n: number, zone: string | undefined, ready = true, hints?: EndpointHints): Endpoint => ({
  addresses: [`10.0.0.${n}`],
  ...(zone !== undefined ? { zone } : {}),
  nodeName: `node-${n}`,
  conditions: { ready },
  ...(hints ? { hints } : {}),
});
const slice = (...endpoints: Endpoint[]): EndpointSlice => ({
  metadata: { name: '', uid: '' },
  addressType: 'IPv4',
  endpoints,
});
const zoneHint = (zone: string): EndpointHints => ({ forZones: [{ name: zone }] });
const hints = (slices: readonly EndpointSlice[]): (EndpointHints | undefined)[][] =>
  slices.map((s) => (s.endpoints ?? []).map((e) => e.hints));

describe('trafficdist.ReconcileHints (trafficdist_test.go TestReconcileHints)', () => {
  for (const td of ['PreferClose', 'PreferSameZone']) {
    it(`given ${td} and slices to create and update, then each ready endpoint is hinted for its own zone ("should set zone hints with ${td}")`, () => {
      const r = reconcileHints(td, {
        toCreate: [slice(ep(1, 'zone-a'), ep(2, 'zone-b'))],
        toUpdate: [slice(ep(5, 'zone-a'))],
        unchanged: [],
      });
      assert.deepEqual(hints(r.toCreate), [[zoneHint('zone-a'), zoneHint('zone-b')]]);
      assert.deepEqual(hints(r.toUpdate), [[zoneHint('zone-a')]]);
    });
  }
  it('given PreferSameNode, then zone and node hints ("should set zone and node hints with PreferSameNode")', () => {
    const r = reconcileHints('PreferSameNode', { toCreate: [slice(ep(1, 'zone-a'))], toUpdate: [], unchanged: [] });
    assert.deepEqual(hints(r.toCreate), [[{ forZones: [{ name: 'zone-a' }], forNodes: [{ name: 'node-1' }] }]]);
  });
  it('given wrong hints in an update and an unchanged slice, and an unchanged slice without hints, then all three are updated right ("should correct incorrect hints with PreferClose")', () => {
    const r = reconcileHints('PreferClose', {
      toCreate: [],
      toUpdate: [slice(ep(1, 'zone-a', true, zoneHint('zone-b')))],
      unchanged: [slice(ep(2, 'zone-b', true, zoneHint('zone-c'))), slice(ep(3, 'zone-c'))],
    });
    assert.deepEqual(hints(r.toUpdate), [[zoneHint('zone-a')], [zoneHint('zone-b')], [zoneHint('zone-c')]]);
    assert.deepEqual(r.unchanged, []);
  });
  it('given PreferClose and endpoints without zones, then no hints; PreferSameNode, node hints only ("…if there are no zones")', () => {
    assert.deepEqual(
      hints(
        reconcileHints('PreferClose', { toCreate: [slice(ep(1, undefined))], toUpdate: [], unchanged: [] }).toCreate,
      ),
      [[undefined]],
    );
    assert.deepEqual(
      hints(
        reconcileHints('PreferSameNode', { toCreate: [slice(ep(1, undefined))], toUpdate: [], unchanged: [] }).toCreate,
      ),
      [[{ forNodes: [{ name: 'node-1' }] }]],
    );
  });
  it('given an unchanged slice whose only endpoint is not ready, then no update ("unready endpoints should not trigger updates")', () => {
    const unchanged = [slice(ep(2, 'zone-b', false))];
    assert.deepEqual(reconcileHints('PreferClose', { toCreate: [], toUpdate: [], unchanged }), {
      toCreate: [],
      toUpdate: [],
      unchanged,
    });
  });
  for (const td of ['Unknown', undefined]) {
    it(`given trafficDistribution ${td ?? 'unset'}, then every hint is removed ("should remove hints when trafficDistribution is ${td === undefined ? 'unset' : 'unrecognized'}")`, () => {
      const r = reconcileHints(td, {
        toCreate: [slice(ep(1, 'zone-a', true, zoneHint('zone-a')))],
        toUpdate: [slice(ep(5, 'zone-a', true, zoneHint('zone-a')))],
        unchanged: [slice(ep(6, 'zone-a', false, zoneHint('zone-a')))],
      });
      assert.deepEqual(
        [hints(r.toCreate), hints(r.toUpdate), r.unchanged.length],
        [[[undefined]], [[undefined], [undefined]], 0],
      );
    });
  }
  it('given unchanged slices, then they are not modified (TestReconcileHints_doesNotMutateUnchangedSlices)', () => {
    const original = slice(ep(1, 'zone-a'));
    const copy = structuredClone(original);
    reconcileHints('PreferClose', { toCreate: [], toUpdate: [], unchanged: [original] });
    assert.deepEqual(original, copy);
  });
});
