import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getZoneKey, swapNodeControllerTaint, taintExists, taintSetDiff } from './node-taints.ts';

describe('node taints', () => {
  it('given taints, then taintExists matches by key and effect only', () => {
    const taints = [{ key: 'a', value: 'x', effect: 'NoSchedule' as const }];
    assert.equal(taintExists(taints, { key: 'a', effect: 'NoSchedule' }), true);
    assert.equal(taintExists(taints, { key: 'a', effect: 'NoExecute' }), false);
  });

  it('given two sets, then taintSetDiff gives what to add and what to remove', () => {
    const diff = taintSetDiff(
      [
        { key: 'a', effect: 'NoSchedule' },
        { key: 'b', effect: 'NoSchedule' },
      ],
      [
        { key: 'a', effect: 'NoSchedule' },
        { key: 'c', effect: 'NoSchedule' },
      ],
    );
    assert.deepEqual(diff, {
      toAdd: [{ key: 'b', effect: 'NoSchedule' }],
      toRemove: [{ key: 'c', effect: 'NoSchedule' }],
    });
  });

  it('given a swap, then the added taint is stamped and appended, the removed one gone, foreign taints kept in place', () => {
    const taints = [
      { key: 'foreign', effect: 'NoSchedule' as const },
      { key: 'old', effect: 'NoExecute' as const },
    ];
    const next = swapNodeControllerTaint(
      taints,
      [{ key: 'new', effect: 'NoExecute' }],
      [{ key: 'old', effect: 'NoExecute' }],
      new Date('2017-01-01T12:00:00.500Z'),
    );
    assert.deepEqual(next, [
      { key: 'foreign', effect: 'NoSchedule' },
      { key: 'new', effect: 'NoExecute', timeAdded: '2017-01-01T12:00:00Z' },
    ]);
  });

  it('given zone labels, then GetZoneKey prefers the beta labels and joins region and zone with :\\0:', () => {
    const meta = (labels: Record<string, string>) => ({ metadata: { name: 'n', uid: 'u', labels } });
    assert.equal(
      getZoneKey(meta({ 'topology.kubernetes.io/zone': 'z', 'failure-domain.beta.kubernetes.io/zone': 'beta' })),
      ':\x00:beta',
    );
    assert.equal(
      getZoneKey(meta({ 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': 'z' })),
      'r:\x00:z',
    );
    assert.equal(getZoneKey(meta({})), '');
  });
});
