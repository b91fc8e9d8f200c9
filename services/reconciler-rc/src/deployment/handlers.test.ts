import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import { newControllerRef } from '../claim-objects.ts';
import { deploymentEvent } from './controller-spec.ts';
import { at, newDeployment, newReplicaSet } from './deployment.fixture.ts';
import { onPodEvent, onReplicaSetEvent } from './handlers.ts';
import { DEPLOYMENT_KIND } from './kinds.ts';
import { DEPLOYMENT_INDEXERS, REPLICA_SET_INDEXERS } from './lookup.ts';

const [d1, d2] = [newDeployment('d1', 1), newDeployment('d2', 1)];
const deployments = (...ds: Deployment[]) => listerOf(ds.length === 0 ? [d1, d2] : ds, DEPLOYMENT_INDEXERS);
const orphan = (r: ReplicaSet): ReplicaSet => {
  const { ownerReferences: _refs, ...metadata } = r.metadata;
  return { ...r, metadata };
};
const bump = (r: ReplicaSet, meta: Partial<ReplicaSet['metadata']> = {}): ReplicaSet => ({
  ...r,
  metadata: { ...r.metadata, ...meta, resourceVersion: String(Number(r.metadata.resourceVersion ?? '0') + 1) },
});
const [rs1, rs2] = [newReplicaSet(d1, 'rs1', 1), newReplicaSet(d2, 'rs2', 1)];

describe('TestAddReplicaSet / TestAddReplicaSetOrphan', () => {
  it('given ReplicaSets each controlled by a Deployment, then each wakes its own', () => {
    assert.deepEqual(onReplicaSetEvent('Applied', rs1, undefined, deployments()), ['default/d1']);
    assert.deepEqual(onReplicaSetEvent('Applied', rs2, undefined, deployments()), ['default/d2']);
  });
  it('given an orphan matching two of three Deployments, then those two wake', () => {
    const d3 = newDeployment('d3', 1, { selector: { foo: 'notbar' } });
    assert.deepEqual(onReplicaSetEvent('Applied', orphan(rs1), undefined, deployments(d1, d2, d3)), [
      'default/d1',
      'default/d2',
    ]);
  });
  it('given a ReplicaSet already being deleted, then it counts as a delete: its owner wakes; an orphan wakes none', () => {
    const deleting = { ...rs1, metadata: { ...rs1.metadata, deletionTimestamp: at(0) } };
    assert.deepEqual(onReplicaSetEvent('Applied', deleting, undefined, deployments()), ['default/d1']);
    assert.deepEqual(onReplicaSetEvent('Applied', orphan(deleting), undefined, deployments()), []);
  });
  it('given a controller reference to a Deployment of another UID, then none', () => {
    const stale = {
      ...rs1,
      metadata: { ...rs1.metadata, ownerReferences: [{ ...rs1.metadata.ownerReferences![0]!, uid: 'gone' }] },
    };
    assert.deepEqual(onReplicaSetEvent('Applied', stale, undefined, deployments()), []);
  });
});

describe('TestUpdateReplicaSet and its variants', () => {
  it('given an owned ReplicaSet updated, then its owner wakes; the same resourceVersion (a resync), then none', () => {
    assert.deepEqual(onReplicaSetEvent('Applied', bump(rs1), rs1, deployments()), ['default/d1']);
    assert.deepEqual(onReplicaSetEvent('Applied', bump(rs2), rs2, deployments()), ['default/d2']);
    assert.deepEqual(onReplicaSetEvent('Applied', rs1, rs1, deployments()), []);
  });
  it('TestUpdateReplicaSetOrphanWithNewLabels: given an orphan whose labels changed, then every matching Deployment wakes', () => {
    const prev = { ...orphan(rs1), metadata: { ...orphan(rs1).metadata, labels: { foo: 'notbar' } } };
    assert.deepEqual(onReplicaSetEvent('Applied', bump(orphan(rs1)), prev, deployments()), [
      'default/d1',
      'default/d2',
    ]);
  });
  it('TestUpdateReplicaSetChangeControllerRef: given its controller changed from d2 to d1, then both wake', () => {
    const prev = { ...rs1, metadata: { ...rs1.metadata, ownerReferences: [newControllerRef(d2, DEPLOYMENT_KIND)] } };
    assert.deepEqual(onReplicaSetEvent('Applied', bump(rs1), prev, deployments()), ['default/d2', 'default/d1']);
  });
  it('TestUpdateReplicaSetRelease: given its controller reference removed, then the old owner and every matching Deployment wake', () => {
    assert.deepEqual(onReplicaSetEvent('Applied', bump(orphan(rs1)), rs1, deployments()), ['default/d1', 'default/d2']);
  });
  it('given an orphan updated with the same labels, then none', () => {
    assert.deepEqual(onReplicaSetEvent('Applied', bump(orphan(rs1)), orphan(rs1), deployments()), []);
  });
});

describe('TestDeleteReplicaSet / TestDeleteReplicaSetOrphan', () => {
  it('given owned ReplicaSets deleted, then each wakes its owner; an orphan, then none', () => {
    assert.deepEqual(onReplicaSetEvent('Deleted', rs1, rs1, deployments()), ['default/d1']);
    assert.deepEqual(onReplicaSetEvent('Deleted', rs2, rs2, deployments()), ['default/d2']);
    assert.deepEqual(onReplicaSetEvent('Deleted', orphan(rs1), orphan(rs1), deployments()), []);
  });
});

describe('TestPodDeletionEnqueuesRecreateDeployment (deletePod)', () => {
  const foo = newDeployment('foo', 1, { recreate: true });
  const rs = newReplicaSet(foo, 'foo-1', 1);
  const podOf = (r: ReplicaSet, name: string): Pod => ({
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: r.metadata.name, uid: r.metadata.uid, controller: true },
      ],
    },
  });
  const sets = (...rss: ReplicaSet[]) => listerOf(rss, REPLICA_SET_INDEXERS);
  it('given a pod of a Recreate Deployment deleted, last or with siblings, then the Deployment wakes', () => {
    assert.deepEqual(onPodEvent('Deleted', podOf(rs, 'foo-1-pod'), sets(rs), deployments(foo)), ['default/foo']);
  });
  it('TestPodDeletionPartialReplicaSetOwnershipEnqueueRecreateDeployment: given another ReplicaSet of the labels orphaned, then the Deployment still wakes', () => {
    const rs2 = orphan(newReplicaSet(foo, 'foo-2', 2));
    assert.deepEqual(onPodEvent('Deleted', podOf(rs, 'foo-1-pod'), sets(rs, rs2), deployments(foo)), ['default/foo']);
  });
  it('given a RollingUpdate Deployment, an update of a pod, or an orphan pod, then none', () => {
    const rolling = newDeployment('foo', 1);
    assert.deepEqual(onPodEvent('Deleted', podOf(rs, 'p'), sets(rs), deployments(rolling)), []);
    assert.deepEqual(onPodEvent('Applied', podOf(rs, 'p'), sets(rs), deployments(foo)), []);
    assert.deepEqual(
      onPodEvent('Deleted', { metadata: { name: 'p', namespace: 'default', uid: 'u' } }, sets(rs), deployments(foo)),
      [],
    );
  });
});

describe('addDeployment / updateDeployment / deleteDeployment', () => {
  const event = (type: 'Applied' | 'Deleted', old: Deployment | undefined) =>
    deploymentEvent({ type, key: 'default/d1', object: d1, old, live: true });
  it('given a new Deployment, then it syncs at its cut (so it adopts the ReplicaSets made before it); an update or a delete, at once', () => {
    assert.deepEqual(event('Applied', undefined), { enqueue: [], enqueueAtCut: ['default/d1'] });
    assert.deepEqual(event('Applied', d1), { enqueue: ['default/d1'] });
    assert.deepEqual(event('Deleted', d1), { enqueue: ['default/d1'] });
  });
});
