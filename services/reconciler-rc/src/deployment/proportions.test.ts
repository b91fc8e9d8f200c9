import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_REPLICAS, withAnnotations } from './annotations.ts';
import { newDeployment, newReplicaSet } from './deployment.fixture.ts';
import { getReplicaSetFraction, getReplicaSetProportion } from './proportions.ts';

describe('TestGetReplicaSetFraction', () => {
  const cases: {
    name: string;
    replicas: number;
    statusReplicas?: number;
    surge?: number;
    rsReplicas: number;
    max?: string;
    want: number;
  }[] = [
    { name: 'empty deployment always scales to 0', replicas: 0, rsReplicas: 10, want: -10 },
    {
      name: 'unsynced deployment does not scale when max-replicas annotation is missing (removed by a 3rd party)',
      replicas: 10,
      rsReplicas: 5,
      want: 0,
    },
    {
      name: 'unsynced deployment does not scale when max-replicas annotation is incorrectly set to 0 (by a 3rd party)',
      replicas: 10,
      rsReplicas: 5,
      max: '0',
      want: 0,
    },
    {
      name: 'scale up by 1/5 should increase RS replicas by 1/5 when max-replicas annotation is missing (removed by a 3rd party)',
      replicas: 120,
      statusReplicas: 100,
      rsReplicas: 50,
      want: 10,
    },
    {
      name: 'scale up by 1/5 should increase RS replicas by 1/5 when max-replicas annotation is incorrectly set to 0 (by a 3rd party)',
      replicas: 120,
      statusReplicas: 100,
      rsReplicas: 50,
      max: '0',
      want: 10,
    },
    { name: 'scale up by 1/5 should increase RS replicas by 1/5', replicas: 120, rsReplicas: 50, max: '100', want: 10 },
    {
      name: 'scale up with maxSurge by 1/5 should increase RS replicas approximately by 1/5',
      replicas: 120,
      surge: 10,
      rsReplicas: 50,
      max: '110',
      want: 9,
    },
    { name: 'scale down by 1/6 should decrease RS replicas by 1/6', replicas: 10, rsReplicas: 6, max: '12', want: -1 },
    {
      name: 'scale down with maxSurge by 1/6 should decrease RS replicas approximately by 1/6',
      replicas: 100,
      surge: 10,
      rsReplicas: 50,
      max: '130',
      want: -8,
    },
  ];
  for (const tc of cases) {
    it(`given "${tc.name}", then ${tc.want}`, () => {
      const d = {
        ...newDeployment('nginx', tc.replicas, { maxSurge: tc.surge ?? 0, maxUnavailable: 1 }),
        status: { replicas: tc.statusReplicas ?? 0 },
      };
      const r = newReplicaSet(d, 'nginx-1', tc.rsReplicas);
      assert.equal(
        getReplicaSetFraction(tc.max === undefined ? r : withAnnotations(r, { [MAX_REPLICAS]: tc.max }), d),
        tc.want,
      );
    });
  }
});

describe('GetReplicaSetProportion', () => {
  const d = newDeployment('nginx', 10, { maxUnavailable: 1 });
  const r = withAnnotations(newReplicaSet(d, 'nginx-1', 3), { [MAX_REPLICAS]: '5' });
  it('given 5 to add, a fraction of 3 is given when 5 are left, 2 when only 2 are left, none when all are given out', () => {
    assert.equal(getReplicaSetProportion(r, d, 5, 0), 3);
    assert.equal(getReplicaSetProportion(r, d, 5, 3), 2);
    assert.equal(getReplicaSetProportion(r, d, 5, 5), 0);
  });
  it('given an empty ReplicaSet, then it never gets a share', () => {
    assert.equal(getReplicaSetProportion(newReplicaSet(d, 'nginx-2', 0), d, 5, 0), 0);
  });
});
