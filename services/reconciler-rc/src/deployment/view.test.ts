import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { newDeployment, newReplicaSet } from './deployment.fixture.ts';
import { bodyOf, contextOf, writesOf } from './sync.fixture.ts';

const d = newDeployment('foo', 3);
const resized = (r: ReplicaSet, replicas: number): ReplicaSet => ({ ...r, spec: { ...r.spec, replicas } });

describe('DeploymentView: one sync, its writes folded per object', () => {
  it('given a Create then an Update of the new ReplicaSet, then one Create of the final state, its first event attached and the second after it', () => {
    const s = contextOf(d, []);
    const created = {
      ...newReplicaSet(d, 'foo-1', 1),
      metadata: { ...newReplicaSet(d, 'foo-1', 1).metadata, uid: '' },
    };
    s.view.createReplicaSet(created, s.view.eventDraft('Normal', 'ScalingReplicaSet', 'one'));
    s.view.event('Normal', 'Other', 'between');
    s.view.updateReplicaSet(resized(created, 3), s.view.eventDraft('Normal', 'ScalingReplicaSet', 'two'));
    const writes = writesOf(s);
    assert.deepEqual(
      writes.map((m) => [m.verb, m.event?.message ?? null]),
      [
        ['Create', 'one'],
        ['RecordEvent', 'two'],
        ['RecordEvent', 'between'],
      ],
    );
    const body = bodyOf<ReplicaSet>(writes[0]);
    assert.equal(body.spec.replicas, 3);
    assert.equal('uid' in body.metadata, false, 'a created object has no uid yet');
    assert.deepEqual(
      s.view.replicaSets().map((r) => [r.metadata.name, r.spec.replicas]),
      [['foo-1', 3]],
    );
  });

  it("given two status writes around an RS update, then one UpdateStatus where the first stood, with the Deployment's final state", () => {
    const old = newReplicaSet(d, 'foo-0', 2);
    const s = contextOf(d, [old]);
    s.view.updateStatus({ ...d, metadata: { ...d.metadata, annotations: { a: '1' } } });
    s.view.updateReplicaSet(resized(old, 1));
    s.view.updateStatus({ ...s.view.deployment, status: { replicas: 2 } });
    const writes = writesOf(s);
    assert.deepEqual(
      writes.map((m) => [m.verb, m.target.name]),
      [
        ['UpdateStatus', 'foo'],
        ['Update', 'foo-0'],
      ],
    );
    const body = bodyOf<Deployment>(writes[0]);
    assert.deepEqual([body.metadata.annotations, body.status], [{ a: '1' }, { replicas: 2 }]);
    assert.deepEqual(writes[0]!.preconditions, { uid: 'uid-foo', resourceVersion: '10' });
  });

  it('given a delete, then the ReplicaSet leaves the view and is deleted under its UID', () => {
    const old = newReplicaSet(d, 'foo-0', 0);
    const s = contextOf(d, [old]);
    s.view.deleteReplicaSet(old);
    assert.deepEqual(s.view.replicaSets(), []);
    const [del] = writesOf(s);
    assert.deepEqual(
      [del?.verb, del?.target.name, del?.preconditions],
      ['Delete', 'foo-0', { uid: 'uid-foo-0', resourceVersion: null }],
    );
    assert.equal(s.view.writesStatus(), false);
  });

  it('given an Update then a Delete of one ReplicaSet (a paused scale, then cleanupDeployment on its stale list), then both, in order, as upstream sends them', () => {
    const old = newReplicaSet(d, 'foo-0', 0);
    const s = contextOf(d, [old]);
    s.view.updateReplicaSet(resized(old, 3));
    s.view.deleteReplicaSet(old);
    const writes = writesOf(s);
    assert.deepEqual(
      writes.map((m) => [m.verb, m.target.name]),
      [
        ['Update', 'foo-0'],
        ['Delete', 'foo-0'],
      ],
    );
    assert.equal(bodyOf<ReplicaSet>(writes[0]).spec.replicas, 3);
  });
});
