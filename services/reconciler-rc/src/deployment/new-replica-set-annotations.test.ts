import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { DESIRED_REPLICAS, MAX_REPLICAS, REVISION, REVISION_HISTORY, withAnnotations } from './annotations.ts';
import { newDeployment, newReplicaSet } from './deployment.fixture.ts';
import { setNewReplicaSetAnnotations } from './new-replica-set-annotations.ts';

const d = withAnnotations(newDeployment('nginx', 3, { maxSurge: 1, maxUnavailable: 1 }), {
  [REVISION]: '1',
  note: 'x',
});

describe('SetNewReplicaSetAnnotations (TestAnnotationUtils)', () => {
  it('given revisions 11 to 20 set in turn with a history limit of 5 characters, then each is the revision and the history keeps the two before', () => {
    let rs: ReplicaSet = newReplicaSet(d, 'nginx-1', 1);
    for (let i = 10; i < 20; i++) {
      rs = setNewReplicaSetAnnotations(d, rs, BigInt(i + 1), true, 5).object;
      if (i >= 12) assert.equal(rs.metadata.annotations?.[REVISION_HISTORY], `${i - 1},${i}`);
      assert.equal(rs.metadata.annotations?.[REVISION], String(i + 1));
    }
  });

  it('given an existing ReplicaSet at a higher revision, then only the copied annotations change', () => {
    const rs = withAnnotations(newReplicaSet(d, 'nginx-1', 1), { [REVISION]: '7' });
    const got = setNewReplicaSetAnnotations(d, rs, 3n, true, 2000);
    assert.equal(got.changed, true);
    assert.deepEqual(got.object.metadata.annotations, { [REVISION]: '7', note: 'x' });
    assert.equal(setNewReplicaSetAnnotations(d, got.object, 3n, true, 2000).changed, false);
  });

  it('given an unparsable revision, then nothing is reported changed (the copy still happened, as upstream)', () => {
    const rs = withAnnotations(newReplicaSet(d, 'nginx-1', 1), { [REVISION]: 'x' });
    const got = setNewReplicaSetAnnotations(d, rs, 3n, true, 2000);
    assert.equal(got.changed, false);
    assert.equal(got.object.metadata.annotations?.['note'], 'x');
  });

  it('given a ReplicaSet about to be created, then it also gets desired-replicas and max-replicas (replicas + maxSurge)', () => {
    const got = setNewReplicaSetAnnotations(d, newReplicaSet(d, 'nginx-1', 1), 2n, false, 2000);
    assert.deepEqual(got.object.metadata.annotations, {
      note: 'x',
      [REVISION]: '2',
      [DESIRED_REPLICAS]: '3',
      [MAX_REPLICAS]: '4',
    });
  });
});
