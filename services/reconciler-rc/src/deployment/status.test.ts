import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeploymentStatus, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { AVAILABLE, REASONS } from './conditions.ts';
import { newDeployment, rs, T0 } from './deployment.fixture.ts';
import { calculateStatus, statusEqual } from './status.ts';

const withStatus = (name: string, spec: number, status: ReplicaSet['status']): ReplicaSet =>
  rs(name, spec, undefined, status);

describe('calculateStatus (sync.go)', () => {
  const d = { ...newDeployment('foo', 4, { maxUnavailable: 1, generation: 3 }), status: { collisionCount: 2 } };
  const newRS = withStatus('new', 3, {
    replicas: 3,
    readyReplicas: 3,
    availableReplicas: 2,
    terminatingReplicas: 0,
    observedGeneration: 1,
  });
  const old = withStatus('old', 2, {
    replicas: 2,
    readyReplicas: 2,
    availableReplicas: 1,
    terminatingReplicas: 1,
    observedGeneration: 1,
  });

  it('given a new and an old ReplicaSet, then the counts summed (updated: the new one), unavailable from spec, terminating, collisionCount kept, Available for minAvailable', () => {
    assert.deepEqual(calculateStatus([old, newRS], newRS, d, T0), {
      observedGeneration: 3,
      replicas: 5,
      updatedReplicas: 3,
      readyReplicas: 5,
      availableReplicas: 3,
      unavailableReplicas: 2,
      terminatingReplicas: 1,
      collisionCount: 2,
      conditions: [
        {
          type: AVAILABLE,
          status: 'True',
          lastUpdateTime: '2026-03-01T12:00:00Z',
          lastTransitionTime: '2026-03-01T12:00:00Z',
          reason: REASONS.MinimumReplicasAvailable,
          message: 'Deployment has minimum availability.',
        },
      ],
    });
  });

  it('given fewer available than minAvailable and more available than spec, then Available=False and unavailableReplicas never below 0', () => {
    const short = calculateStatus([withStatus('a', 1, { replicas: 2, availableReplicas: 2 })], undefined, d, T0);
    assert.equal(short.unavailableReplicas, 0);
    assert.equal(short.terminatingReplicas, 0, 'a ReplicaSet never synced adds nothing');
    assert.deepEqual(
      short.conditions?.map((c) => [c.status, c.reason]),
      [['False', REASONS.MinimumReplicasUnavailable]],
    );
  });

  it('given a synced ReplicaSet without a terminating count, then terminatingReplicas is left out (nil)', () => {
    const status = calculateStatus([withStatus('a', 1, { replicas: 1, observedGeneration: 1 })], undefined, d, T0);
    assert.equal('terminatingReplicas' in status, false);
  });
});

describe('statusEqual (reflect.DeepEqual of two statuses)', () => {
  const s: DeploymentStatus = { replicas: 1, updatedReplicas: 0, conditions: [] };
  it('given absent and zero counts, then equal; absent and zero pointers, then not; absent and empty conditions, then equal', () => {
    assert.equal(statusEqual({ replicas: 1 }, s), true);
    assert.equal(statusEqual({ replicas: 1 }, { ...s, terminatingReplicas: 0 }), false);
    assert.equal(statusEqual({ replicas: 1 }, { ...s, collisionCount: 0 }), false);
    assert.equal(statusEqual(undefined, {}), true);
  });
});
