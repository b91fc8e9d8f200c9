import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NEW_IMAGE, type ReplicaSetSeen, stepLatencies } from './steps.ts';

const seen = (at: number, name: string, replicas: number, available: number): ReplicaSetSeen => ({
  at,
  rs: {
    metadata: { name },
    spec: { replicas, template: { spec: { containers: [{ image: name === 'new' ? NEW_IMAGE : 'nginx:1' }] } } },
    status: { availableReplicas: available },
  },
});

describe('stepLatencies: from a new ReplicaSet readiness step to the next scaling step', () => {
  it('given readiness steps of the new ReplicaSet each followed by a scaling step, then the time from the last readiness to each step', () => {
    const events = [
      seen(0, 'old', 10, 10),
      seen(10, 'new', 3, 0),
      seen(20, 'old', 8, 10),
      seen(100, 'new', 3, 1),
      seen(130, 'new', 3, 3),
      seen(150, 'old', 5, 8),
      seen(400, 'new', 3, 3),
      seen(500, 'new', 5, 3),
    ];
    assert.deepEqual(stepLatencies(events), [20]);
  });

  it("given a creation, a scale with no readiness before it and the old ReplicaSet's readiness, then none counts", () => {
    assert.deepEqual(
      stepLatencies([seen(0, 'old', 10, 9), seen(5, 'old', 10, 10), seen(10, 'new', 3, 0), seen(20, 'old', 8, 10)]),
      [],
    );
  });

  it('given events delivered out of order, then they are read in time order', () => {
    assert.deepEqual(stepLatencies([seen(300, 'new', 6, 3), seen(200, 'new', 3, 3), seen(100, 'new', 3, 0)]), [100]);
  });
});
