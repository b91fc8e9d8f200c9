import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { newDeployment, rs } from './deployment.fixture.ts';
import {
  cleanupUnhealthyReplicas,
  reconcileNewReplicaSet,
  reconcileOldReplicaSets,
  scaleDownOldReplicaSetsForRollingUpdate,
} from './rolling.ts';
import { bodyOf, contextOf, writesOf } from './sync.fixture.ts';

const available = (r: ReplicaSet, availableReplicas: number): ReplicaSet => ({
  ...r,
  status: { replicas: r.spec.replicas ?? 0, availableReplicas },
});
const updates = (s: ReturnType<typeof contextOf>): [string, number | undefined][] =>
  writesOf(s)
    .filter((m) => m.verb === 'Update')
    .map((m) => [m.target.name, bodyOf<ReplicaSet>(m).spec.replicas]);

describe('TestDeploymentController_reconcileNewReplicaSet', () => {
  const cases = [
    { replicas: 10, surge: 0, old: 10, new: 0, expected: undefined },
    { replicas: 10, surge: 2, old: 10, new: 0, expected: 2 },
    { replicas: 10, surge: 2, old: 5, new: 0, expected: 7 },
    { replicas: 10, surge: 2, old: 10, new: 2, expected: undefined },
    { replicas: 10, surge: 2, old: 2, new: 11, expected: 10 },
  ];
  for (const [i, tc] of cases.entries()) {
    it(`#${i}: given ${tc.replicas} replicas, maxSurge ${tc.surge}, old ${tc.old}, new ${tc.new}, then ${tc.expected === undefined ? 'no scaling' : `the new one scaled to ${tc.expected}`}`, () => {
      const [newRS, oldRS] = [rs('foo-v2', tc.new), rs('foo-v1', tc.old)];
      const s = contextOf(newDeployment('foo', tc.replicas, { maxSurge: tc.surge, maxUnavailable: 0 }), [newRS, oldRS]);
      assert.equal(reconcileNewReplicaSet(s, [newRS, oldRS], newRS), tc.expected !== undefined);
      assert.deepEqual(updates(s), tc.expected === undefined ? [] : [['foo-v2', tc.expected]]);
    });
  }
});

describe('TestDeploymentController_reconcileOldReplicaSets', () => {
  const cases = [
    { replicas: 10, unavailable: 0, old: 10, new: 0, readyOld: 10, readyNew: 0, expected: 9 },
    { replicas: 10, unavailable: 2, old: 10, new: 0, readyOld: 10, readyNew: 0, expected: 8 },
    { replicas: 10, unavailable: 2, old: 10, new: 0, readyOld: 8, readyNew: 0, expected: 8 },
    { replicas: 10, unavailable: 2, old: 10, new: 0, readyOld: 9, readyNew: 0, expected: 8 },
    { replicas: 10, unavailable: 2, old: 8, new: 2, readyOld: 8, readyNew: 0, expected: undefined },
  ];
  for (const [i, tc] of cases.entries()) {
    it(`#${i}: given maxUnavailable ${tc.unavailable}, old ${tc.old} (${tc.readyOld} available), new ${tc.new} (${tc.readyNew}), then ${tc.expected === undefined ? 'no scaling' : `old scaled to ${tc.expected}`}`, () => {
      const newRS = available(rs('foo-new', tc.new), tc.readyNew);
      const oldRS = available(rs('foo-old', tc.old), tc.readyOld);
      const s = contextOf(newDeployment('foo', tc.replicas, { maxSurge: 0, maxUnavailable: tc.unavailable }), [
        oldRS,
        newRS,
      ]);
      assert.equal(reconcileOldReplicaSets(s, [oldRS, newRS], [oldRS], newRS), tc.expected !== undefined);
      if (tc.expected !== undefined) assert.deepEqual(updates(s).at(-1), ['foo-old', tc.expected]);
      else assert.deepEqual(updates(s), []);
    });
  }
});

describe('TestDeploymentController_cleanupUnhealthyReplicas', () => {
  const cases = [
    { old: 10, ready: 8, max: 1, expected: 1 },
    { old: 10, ready: 8, max: 3, expected: 2 },
    { old: 10, ready: 8, max: 0, expected: 0 },
    { old: 10, ready: 10, max: 3, expected: 0 },
  ];
  for (const [i, tc] of cases.entries()) {
    it(`#${i}: given ${tc.old} replicas, ${tc.ready} available, at most ${tc.max}, then ${tc.expected} unhealthy cleaned up`, () => {
      const oldRS = available(rs('foo-v2', tc.old), tc.ready);
      const s = contextOf(newDeployment('foo', 10, { maxSurge: 2, maxUnavailable: 2 }), [oldRS]);
      const got = cleanupUnhealthyReplicas(s, [oldRS], tc.max);
      assert.equal(got?.count, tc.expected);
      assert.deepEqual(updates(s), tc.expected === 0 ? [] : [['foo-v2', tc.old - tc.expected]]);
    });
  }

  it('given a ReplicaSet reporting more available pods than its size, then upstream errs: undefined, the scale-down ends there', () => {
    const oldRS = available(rs('foo-v2', 2), 5);
    assert.equal(cleanupUnhealthyReplicas(contextOf(newDeployment('foo', 10), [oldRS]), [oldRS], 3), undefined);
  });
});

describe('TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate', () => {
  const cases = [
    { replicas: 10, unavailable: 0, ready: 10, old: 10, expected: 9 },
    { replicas: 10, unavailable: 2, ready: 10, old: 10, expected: 8 },
    { replicas: 10, unavailable: 2, ready: 8, old: 10, expected: undefined },
    { replicas: 10, unavailable: 2, ready: 10, old: 0, expected: undefined },
    { replicas: 10, unavailable: 2, ready: 1, old: 10, expected: undefined },
  ];
  for (const [i, tc] of cases.entries()) {
    it(`#${i}: given ${tc.ready} available, old ${tc.old}, maxUnavailable ${tc.unavailable}, then ${tc.expected === undefined ? 'no scaling' : `one update to ${tc.expected}`}`, () => {
      const oldRS = available(rs('foo-v2', tc.old), tc.ready);
      const s = contextOf(newDeployment('foo', tc.replicas, { maxSurge: 0, maxUnavailable: tc.unavailable }), [oldRS]);
      const scaled = scaleDownOldReplicaSetsForRollingUpdate(s, [oldRS], [oldRS]);
      assert.equal(scaled > 0, tc.expected !== undefined);
      assert.deepEqual(updates(s), tc.expected === undefined ? [] : [['foo-v2', tc.expected]]);
    });
  }
});
