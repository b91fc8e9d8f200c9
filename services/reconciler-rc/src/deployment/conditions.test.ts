import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeploymentCondition, DeploymentStatus } from '@kcm-bus/k8s/apps-v1.ts';
import {
  AVAILABLE,
  getDeploymentCondition,
  newDeploymentCondition,
  PROGRESSING,
  removeDeploymentCondition,
  REPLICA_FAILURE,
  replicaSetToDeploymentCondition,
  setDeploymentCondition,
} from './conditions.ts';
import { T0 } from './deployment.fixture.ts';

const condProgressing = (): DeploymentCondition => ({ type: PROGRESSING, status: 'False', reason: 'ForSomeReason' });
const condProgressing2 = (): DeploymentCondition => ({ type: PROGRESSING, status: 'True', reason: 'BecauseItIs' });
const condAvailable = (): DeploymentCondition => ({ type: AVAILABLE, status: 'True', reason: 'AwesomeController' });
const status = (): DeploymentStatus => ({ conditions: [condProgressing(), condAvailable()] });

describe('TestGetCondition', () => {
  it('given a status with Progressing and Available, then Available exists and ReplicaFailure does not', () => {
    assert.deepEqual(getDeploymentCondition(status(), AVAILABLE), condAvailable());
    assert.equal(getDeploymentCondition(status(), REPLICA_FAILURE), undefined);
  });
});

describe('TestSetCondition', () => {
  const cases: [string, DeploymentStatus, DeploymentCondition, DeploymentStatus][] = [
    ['set for the first time', {}, condAvailable(), { conditions: [condAvailable()] }],
    ['simple set', { conditions: [condProgressing()] }, condAvailable(), status()],
    ['overwrite', { conditions: [condProgressing()] }, condProgressing2(), { conditions: [condProgressing2()] }],
  ];
  for (const [name, before, cond, after] of cases)
    it(`given "${name}", then the conditions are as expected`, () =>
      assert.deepEqual(setDeploymentCondition(before, cond), after));

  it('given a condition of the same status and reason, then nothing changes; of the same status only, then its lastTransitionTime stays', () => {
    const old = newDeploymentCondition(PROGRESSING, 'True', 'A', 'old', new Date(0));
    const same = setDeploymentCondition(
      { conditions: [old] },
      newDeploymentCondition(PROGRESSING, 'True', 'A', 'new', T0),
    );
    assert.deepEqual(same.conditions, [old]);
    const next = setDeploymentCondition(
      { conditions: [old] },
      newDeploymentCondition(PROGRESSING, 'True', 'B', 'new', T0),
    );
    assert.deepEqual(next.conditions, [
      {
        type: PROGRESSING,
        status: 'True',
        lastUpdateTime: '2026-03-01T12:00:00Z',
        lastTransitionTime: '1970-01-01T00:00:00Z',
        reason: 'B',
        message: 'new',
      },
    ]);
  });
});

describe('TestRemoveCondition', () => {
  const cases: [string, DeploymentStatus, string, DeploymentStatus][] = [
    ['remove from empty status', {}, PROGRESSING, {}],
    ['simple remove', { conditions: [condProgressing()] }, PROGRESSING, {}],
    ["doesn't remove anything", status(), REPLICA_FAILURE, status()],
  ];
  for (const [name, before, type, after] of cases)
    it(`given "${name}", then the conditions are as expected`, () =>
      assert.deepEqual(removeDeploymentCondition(before, type), after));
});

describe('ReplicaSetToDeploymentCondition', () => {
  it("given a ReplicaSet's ReplicaFailure, then the Deployment's, its transition time as both times", () => {
    const c = {
      type: REPLICA_FAILURE,
      status: 'True' as const,
      lastTransitionTime: '2026-03-01T11:00:00Z',
      reason: 'FailedCreate',
      message: 'quota',
    };
    assert.deepEqual(replicaSetToDeploymentCondition(c), { ...c, lastUpdateTime: c.lastTransitionTime });
  });
});
