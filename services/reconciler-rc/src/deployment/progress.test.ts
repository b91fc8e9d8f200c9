import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment, DeploymentStatus } from '@kcm-bus/k8s/apps-v1.ts';
import { PROGRESSING, REASONS } from './conditions.ts';
import { newDeployment } from './deployment.fixture.ts';
import { deploymentComplete, deploymentProgressing, deploymentTimedOut } from './progress.ts';
import { MAX_INT32 } from './spec.ts';

describe('TestDeploymentComplete', () => {
  const deployment = (
    desired: number,
    current: number,
    updated: number,
    available: number,
    maxUnavailable: number,
    maxSurge: number,
  ): Deployment => ({
    ...newDeployment('foo', desired, { maxUnavailable, maxSurge }),
    status: { replicas: current, updatedReplicas: updated, availableReplicas: available, observedGeneration: 1 },
  });
  const cases: [string, Deployment, boolean][] = [
    ['not complete: min but not all pods become available', deployment(5, 5, 5, 4, 1, 0), false],
    ['not complete: min availability is not honored', deployment(5, 5, 5, 3, 1, 0), false],
    ['complete', deployment(5, 5, 5, 5, 0, 0), true],
    ['not complete: all pods are available but not updated', deployment(5, 5, 4, 5, 0, 0), false],
    ['not complete: still running old pods', deployment(1, 2, 1, 1, 0, 1), false],
    ['not complete: one replica deployment never comes up', deployment(1, 1, 1, 0, 1, 1), false],
  ];
  for (const [name, d, want] of cases)
    it(`given "${name}", then ${want}`, () => assert.equal(deploymentComplete(d, d.status!), want));

  it('given a complete status that has not observed the generation, then not complete', () => {
    const d = {
      ...deployment(5, 5, 5, 5, 0, 0),
      metadata: { ...deployment(5, 5, 5, 5, 0, 0).metadata, generation: 2 },
    };
    assert.equal(deploymentComplete(d, d.status!), false);
  });
});

describe('TestDeploymentProgressing', () => {
  const counts = (
    replicas: number,
    updatedReplicas: number,
    readyReplicas: number,
    availableReplicas: number,
  ): DeploymentStatus => ({ replicas, updatedReplicas, readyReplicas, availableReplicas });
  const cases: [string, DeploymentStatus, DeploymentStatus, boolean][] = [
    ['progressing: updated pods', counts(10, 4, 4, 4), counts(10, 6, 4, 4), true],
    ['not progressing', counts(10, 4, 4, 4), counts(10, 4, 4, 4), false],
    ['progressing: old pods removed', counts(10, 4, 6, 6), counts(8, 4, 6, 6), true],
    ['not progressing: less new pods', counts(10, 7, 3, 3), counts(10, 6, 3, 3), false],
    ['progressing: less overall but more new pods', counts(10, 4, 7, 7), counts(8, 8, 5, 5), true],
    ['progressing: more ready pods', counts(10, 10, 9, 8), counts(10, 10, 10, 8), true],
    ['progressing: more available pods', counts(10, 10, 10, 9), counts(10, 10, 10, 10), true],
  ];
  for (const [name, old, next, want] of cases)
    it(`given "${name}", then ${want}`, () =>
      assert.equal(deploymentProgressing({ ...newDeployment('foo', 10), status: old }, next), want));
});

describe('TestDeploymentTimedOut', () => {
  const time = (min: number, sec: number): Date => new Date(Date.UTC(2016, 0, 1, 0, min, sec));
  const deployment = (reason: string, pds: number, from: Date | undefined): Deployment => ({
    ...newDeployment('foo', 1, { progressDeadlineSeconds: pds }),
    status: {
      conditions: [
        { type: PROGRESSING, status: 'True', reason, ...(from ? { lastUpdateTime: from.toISOString() } : {}) },
      ],
    },
  });
  const withoutDeadline = (d: Deployment): Deployment => {
    const { progressDeadlineSeconds: _pds, ...spec } = d.spec;
    return { ...d, spec };
  };
  const cases: [string, Deployment, Date, boolean][] = [
    [
      'no progressDeadlineSeconds (the apiserver default, 600 s) - no timeout after 11s',
      withoutDeadline(deployment('', 10, time(1, 9))),
      time(1, 20),
      false,
    ],
    [
      'infinite progressDeadlineSeconds specified - no timeout',
      deployment('', MAX_INT32, time(1, 9)),
      time(1, 20),
      false,
    ],
    [
      'progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:09 => 11s',
      deployment('', 10, time(1, 9)),
      time(1, 20),
      true,
    ],
    [
      'progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:11 => 9s',
      deployment('', 10, time(1, 11)),
      time(1, 20),
      false,
    ],
    [
      'previous status was a complete deployment',
      deployment(REASONS.NewRSAvailableReason, 10, undefined),
      time(1, 20),
      false,
    ],
    [
      'a ProgressDeadlineExceeded condition already',
      deployment(REASONS.TimedOutReason, 10, time(1, 19)),
      time(1, 20),
      true,
    ],
  ];
  for (const [name, d, now, want] of cases)
    it(`given "${name}", then ${want}`, () => assert.equal(deploymentTimedOut(d, d.status!, now), want));
});
