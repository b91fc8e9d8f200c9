import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment, DeploymentCondition, DeploymentStatus, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { DEFAULT_BASE_DELAY_MS } from '@kcm-bus/runtime/workqueue/index.ts';
import { PROGRESSING, REASONS, REPLICA_FAILURE } from './conditions.ts';
import { newDeployment, rs } from './deployment.fixture.ts';
import { getReplicaFailures, requeueStuckDeployment, syncRolloutStatus } from './rollout-status.ts';
import { MAX_INT32 } from './spec.ts';
import { contextOf, writesOf } from './sync.fixture.ts';

const counts = (replicas: number, updatedReplicas: number, availableReplicas: number): DeploymentStatus => ({
  replicas,
  updatedReplicas,
  availableReplicas,
});

/** currentDeployment mirrors progress_test.go's: a Recreate Deployment "progress-test" with this status and conditions. */
function currentDeployment(
  pds: number | undefined,
  replicas: number,
  statusReplicas: number,
  updated: number,
  available: number,
  conditions: DeploymentCondition[],
): Deployment {
  const d = newDeployment('progress-test', replicas, {
    recreate: true,
    ...(pds === undefined ? {} : { progressDeadlineSeconds: pds }),
  });
  return { ...d, status: { ...counts(statusReplicas, updated, available), observedGeneration: 1, conditions } };
}

const withAvailable = (name: string, spec: number, replicas: number, availableReplicas: number): ReplicaSet =>
  rs(name, spec, undefined, { replicas, availableReplicas });

describe('TestRequeueStuckDeployment', () => {
  const failed: DeploymentCondition[] = [{ type: PROGRESSING, status: 'False', reason: REASONS.TimedOutReason }];
  const stuck: DeploymentCondition[] = [{ type: PROGRESSING, status: 'True', lastUpdateTime: '2017-02-15T18:49:00Z' }];
  const time = (min: number, sec: number, ms = 0): Date => new Date(Date.UTC(2017, 1, 15, 18, min, sec, ms));
  const cases: [string, Deployment, DeploymentStatus, Date, number | undefined][] = [
    [
      'nil progressDeadlineSeconds specified (MaxInt32)',
      currentDeployment(MAX_INT32, 4, 3, 3, 2, []),
      counts(3, 3, 2),
      time(49, 0),
      undefined,
    ],
    [
      'infinite progressDeadlineSeconds specified',
      currentDeployment(MAX_INT32, 4, 3, 3, 2, []),
      counts(3, 3, 2),
      time(49, 0),
      undefined,
    ],
    ['no progressing condition found', currentDeployment(60, 4, 3, 3, 2, []), counts(3, 3, 2), time(49, 0), undefined],
    [
      'complete deployment does not need to be requeued',
      currentDeployment(60, 3, 3, 3, 3, []),
      { ...counts(3, 3, 3), observedGeneration: 1 },
      time(49, 0),
      undefined,
    ],
    [
      'already failed deployment does not need to be requeued',
      currentDeployment(60, 3, 3, 3, 0, failed),
      counts(3, 3, 0),
      time(49, 0),
      undefined,
    ],
    ['stuck deployment - 30s', currentDeployment(60, 3, 3, 3, 1, stuck), counts(3, 3, 1), time(49, 30), 31_000],
    ['stuck deployment - 1s', currentDeployment(60, 3, 3, 3, 1, stuck), counts(3, 3, 1), time(49, 59), 2_000],
    [
      'failed deployment - less than a second => now',
      currentDeployment(60, 3, 3, 3, 1, stuck),
      counts(3, 3, 1),
      time(49, 59, 1),
      DEFAULT_BASE_DELAY_MS,
    ],
    [
      'failed deployment - now',
      currentDeployment(60, 3, 3, 3, 1, stuck),
      counts(3, 3, 1),
      time(50, 0),
      DEFAULT_BASE_DELAY_MS,
    ],
    [
      'failed deployment - 1s after deadline',
      currentDeployment(60, 3, 3, 3, 1, stuck),
      counts(3, 3, 1),
      time(50, 1),
      DEFAULT_BASE_DELAY_MS,
    ],
    [
      'failed deployment - 60s after deadline',
      currentDeployment(60, 3, 3, 3, 1, stuck),
      counts(3, 3, 1),
      time(51, 0),
      DEFAULT_BASE_DELAY_MS,
    ],
  ];
  for (const [name, d, status, now, want] of cases)
    it(`given "${name}", then requeue after ${want ?? 'never'} ms (upstream's duration, plus its second of skew)`, () =>
      assert.equal(requeueStuckDeployment(d, status, now), want));
});

describe('TestSyncRolloutStatus', () => {
  const testTime = '2017-02-15T18:49:00Z';
  const failedTimedOut: DeploymentCondition = { type: PROGRESSING, status: 'False', reason: REASONS.TimedOutReason };
  const newRSAvailable: DeploymentCondition = {
    type: PROGRESSING,
    status: 'True',
    reason: REASONS.NewRSAvailableReason,
    lastUpdateTime: testTime,
    lastTransitionTime: testTime,
  };
  const replicaSetUpdated: DeploymentCondition = {
    type: PROGRESSING,
    status: 'True',
    reason: REASONS.ReplicaSetUpdatedReason,
    lastUpdateTime: testTime,
    lastTransitionTime: testTime,
  };
  type Case = {
    name: string;
    d: Deployment;
    allRSs: ReplicaSet[];
    newRS?: ReplicaSet;
    want?: [string, string];
    lastUpdate?: true;
    lastTransition?: true;
  };
  const cases: Case[] = [
    {
      name: 'General: remove Progressing condition and do not estimate progress if deployment has no Progress Deadline',
      d: currentDeployment(undefined, 3, 2, 2, 2, [replicaSetUpdated]),
      allRSs: [withAvailable('bar', 0, 1, 1)],
      newRS: withAvailable('foo', 3, 2, 2),
    },
    {
      name: 'General: do not estimate progress of deployment with only one active ReplicaSet',
      d: currentDeployment(60, 3, 3, 3, 3, [newRSAvailable]),
      allRSs: [withAvailable('bar', 3, 3, 3)],
      want: ['True', REASONS.NewRSAvailableReason],
      lastUpdate: true,
      lastTransition: true,
    },
    {
      name: 'DeploymentProgressing: dont update lastTransitionTime if deployment already has Progressing=True',
      d: currentDeployment(60, 3, 2, 2, 2, [replicaSetUpdated]),
      allRSs: [withAvailable('bar', 0, 1, 1)],
      newRS: withAvailable('foo', 3, 2, 2),
      want: ['True', REASONS.ReplicaSetUpdatedReason],
      lastTransition: true,
    },
    {
      name: 'DeploymentProgressing: update everything if deployment has Progressing=False',
      d: currentDeployment(60, 3, 2, 2, 2, [failedTimedOut]),
      allRSs: [withAvailable('bar', 0, 1, 1)],
      newRS: withAvailable('foo', 3, 2, 2),
      want: ['True', REASONS.ReplicaSetUpdatedReason],
    },
    {
      name: 'DeploymentProgressing: create Progressing condition if it does not exist',
      d: currentDeployment(60, 3, 2, 2, 2, []),
      allRSs: [withAvailable('bar', 0, 1, 1)],
      newRS: withAvailable('foo', 3, 2, 2),
      want: ['True', REASONS.ReplicaSetUpdatedReason],
    },
    {
      name: 'DeploymentComplete: dont update lastTransitionTime if deployment already has Progressing=True',
      d: currentDeployment(60, 3, 3, 3, 3, [replicaSetUpdated]),
      allRSs: [],
      newRS: withAvailable('foo', 3, 3, 3),
      want: ['True', REASONS.NewRSAvailableReason],
      lastTransition: true,
    },
    {
      name: 'DeploymentComplete: update everything if deployment has Progressing=False',
      d: currentDeployment(60, 3, 3, 3, 3, [failedTimedOut]),
      allRSs: [],
      newRS: withAvailable('foo', 3, 3, 3),
      want: ['True', REASONS.NewRSAvailableReason],
    },
    {
      name: 'DeploymentComplete: create Progressing condition if it does not exist',
      d: currentDeployment(60, 3, 3, 3, 3, []),
      allRSs: [],
      newRS: withAvailable('foo', 3, 3, 3),
      want: ['True', REASONS.NewRSAvailableReason],
    },
    {
      name: 'DeploymentComplete: defend against NPE when newRS=nil',
      d: currentDeployment(60, 0, 3, 3, 3, [replicaSetUpdated]),
      allRSs: [withAvailable('foo', 0, 0, 0)],
      want: ['True', REASONS.NewRSAvailableReason],
      lastTransition: true,
    },
    {
      name: 'DeploymentTimedOut: update status if rollout exceeds Progress Deadline',
      d: currentDeployment(60, 3, 2, 2, 2, [replicaSetUpdated]),
      allRSs: [],
      newRS: withAvailable('foo', 3, 2, 2),
      want: ['False', REASONS.TimedOutReason],
    },
    {
      name: 'DeploymentTimedOut: do not update status if deployment has existing timedOut condition',
      d: currentDeployment(60, 3, 2, 2, 2, [failedTimedOut]),
      allRSs: [],
      newRS: withAvailable('foo', 3, 2, 2),
      want: ['False', REASONS.TimedOutReason],
    },
  ];
  for (const tc of cases) {
    it(`given "${tc.name}", then the Progressing condition is ${tc.want?.join(' ') ?? 'gone'}`, () => {
      const allRSs = tc.newRS === undefined ? tc.allRSs : [...tc.allRSs, tc.newRS];
      const s = contextOf(tc.d, allRSs);
      syncRolloutStatus(s, allRSs, tc.newRS);
      const cond = s.view.deployment.status?.conditions?.find((c) => c.type === PROGRESSING);
      if (tc.want === undefined) return assert.equal(cond, undefined);
      assert.deepEqual([cond?.status, cond?.reason], tc.want);
      if (tc.lastUpdate) assert.equal(cond?.lastUpdateTime, testTime);
      if (tc.lastTransition) assert.equal(cond?.lastTransitionTime, testTime);
      if (!tc.lastTransition) assert.notEqual(cond?.lastTransitionTime, testTime);
    });
  }

  it('given a status that does not change, then nothing is written and the Deployment is requeued for its deadline', () => {
    const d = currentDeployment(60, 3, 2, 2, 2, [{ ...replicaSetUpdated, lastUpdateTime: '2026-03-01T11:59:30Z' }]);
    const s = contextOf(d, []);
    const first = syncRolloutStatus(s, [withAvailable('foo', 3, 2, 2)], withAvailable('foo', 3, 2, 2));
    assert.equal(first, undefined);
    const written = s.view.deployment;
    const again = contextOf(written, []);
    assert.equal(syncRolloutStatus(again, [withAvailable('foo', 3, 2, 2)], withAvailable('foo', 3, 2, 2)), 31_000);
    assert.deepEqual(writesOf(again), []);
  });
});

describe('getReplicaFailures', () => {
  const failing = (name: string, message: string): ReplicaSet => ({
    ...rs(name, 1),
    status: { replicas: 0, conditions: [{ type: REPLICA_FAILURE, status: 'True', reason: 'FailedCreate', message }] },
  });
  it("given failures of an old and the new ReplicaSet, then the new one's; of old ones only, then the first", () => {
    const [old, neu] = [failing('old', 'old quota'), failing('new', 'new quota')];
    assert.equal(getReplicaFailures([old, neu], neu)?.message, 'new quota');
    assert.equal(getReplicaFailures([old, failing('older', 'x')], rs('new', 1))?.message, 'old quota');
    assert.equal(getReplicaFailures([rs('a', 1)], undefined), undefined);
  });

  it('given a failing new ReplicaSet, then the rollout status carries ReplicaFailure, removed once it clears', () => {
    const d = currentDeployment(undefined, 1, 0, 0, 0, []);
    const s = contextOf(d, []);
    syncRolloutStatus(s, [failing('new', 'quota')], failing('new', 'quota'));
    assert.deepEqual(
      s.view.deployment.status?.conditions?.map((c) => [c.type, c.message]),
      [
        ['Available', 'Deployment does not have minimum availability.'],
        [REPLICA_FAILURE, 'quota'],
      ],
    );
    syncRolloutStatus(s, [rs('new', 1)], rs('new', 1));
    assert.deepEqual(
      s.view.deployment.status?.conditions?.map((c) => c.type),
      ['Available'],
    );
  });
});
