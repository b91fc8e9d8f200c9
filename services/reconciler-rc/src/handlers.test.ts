import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OwnerReference, Pod, ReplicationController } from '@kcm-bus/k8s/core-v1.ts';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import { onPodEvent, onSetEvent } from './handlers.ts';
import { at, LABELS, newPod, newRc, T0 } from './rc.fixture.ts';
import { REPLICATION_CONTROLLERS as RC } from './replica-set-kind.ts';
import {
  filterPodsByOwner,
  getIndirectlyRelatedPods,
  getPodControllers,
  POD_INDEXERS,
  SET_INDEXERS,
} from './set-lookup.ts';

const rc1 = newRc(1, LABELS);
const rc2 = newRc(1, { bar: 'foo' }, { metadata: { name: 'barfoo', uid: 'rc-uid-barfoo' } });
const rcs = listerOf([rc1, rc2], SET_INDEXERS);
const refTo = (rc: ReplicationController): OwnerReference => ({
  apiVersion: 'v1',
  kind: 'ReplicationController',
  name: rc.metadata.name,
  uid: rc.metadata.uid,
  controller: true,
});
const withMeta = (pod: Pod, meta: Partial<Pod['metadata']>): Pod => ({
  ...pod,
  metadata: { ...pod.metadata, ...meta },
});

describe('TestDeleteFinalStateUnknown', () => {
  it('given the last known state of a deleted owned pod (a tombstone), when handled, then its RC is enqueued and the deletion observed', () => {
    const pod = newPod('pod0', rc1);
    assert.deepEqual(onPodEvent(RC, 'Deleted', pod, undefined, rcs), {
      enqueue: ['default/foobar'],
      observed: { setKey: 'default/foobar', kind: 'deletion', podKey: 'default/pod0' },
    });
  });
});

describe('TestPodControllerLookup', () => {
  const cases: readonly { name: string; pod: Pod; expected: string[] }[] = [
    { name: 'orphan with matching labels', pod: newPod('p', rc1, { owned: false }), expected: ['foobar'] },
    {
      name: 'different namespace',
      pod: withMeta(newPod('p', rc1, { owned: false }), { namespace: 'other' }),
      expected: [],
    },
    { name: 'no labels', pod: newPod('p', rc1, { owned: false, labels: {} }), expected: [] },
    {
      name: 'labels matching no selector',
      pod: newPod('p', rc1, { owned: false, labels: { foo: 'baz' } }),
      expected: [],
    },
  ];
  for (const tc of cases) {
    it(`given ${tc.name}, then the RCs selecting it are [${tc.expected.join(', ')}]`, () => {
      assert.deepEqual(
        getPodControllers(RC, tc.pod, rcs).map((rc) => rc.metadata.name),
        tc.expected,
      );
    });
  }

  it('given an RC with an empty selector, then it selects nothing (not everything)', () => {
    const empty = newRc(1, {}, { metadata: { name: 'empty', uid: 'e' } });
    assert.deepEqual(getPodControllers(RC, newPod('p', rc1, { owned: false }), listerOf([empty], SET_INDEXERS)), []);
  });
});

describe('TestWatchPods / addPod', () => {
  it('given an owned pod appears, then its RC is enqueued and one creation observed', () => {
    assert.deepEqual(onPodEvent(RC, 'Applied', newPod('p', rc1), undefined, rcs), {
      enqueue: ['default/foobar'],
      observed: { setKey: 'default/foobar', kind: 'creation', podKey: 'default/p' },
    });
  });

  it('given a pod whose controllerRef names an RC that was recreated (other UID) or another kind, then nothing', () => {
    const stale = newPod('p', rc1, { ownerReferences: [{ ...refTo(rc1), uid: 'gone' }] });
    const rs = newPod('q', rc1, { ownerReferences: [{ ...refTo(rc1), kind: 'ReplicaSet' }] });
    assert.deepEqual(onPodEvent(RC, 'Applied', stale, undefined, rcs), { enqueue: [] });
    assert.deepEqual(onPodEvent(RC, 'Applied', rs, undefined, rcs), { enqueue: [] });
  });

  it('given an owned pod turns Failed, then its owner is enqueued', () => {
    const old = newPod('p', rc1);
    const failed = withMeta(newPod('p', rc1, { phase: 'Failed' }), { resourceVersion: '2' });
    assert.deepEqual(onPodEvent(RC, 'Applied', failed, old, rcs), { enqueue: ['default/foobar'] });
  });

  it('given an orphan appears, then every RC selecting it is enqueued and nothing is observed', () => {
    assert.deepEqual(onPodEvent(RC, 'Applied', newPod('p', rc1, { owned: false }), undefined, rcs), {
      enqueue: ['default/foobar'],
    });
  });
});

describe('TestUpdatePods', () => {
  const base = (meta: Partial<Pod['metadata']>): Pod => withMeta(newPod('pod', rc1), meta);
  it('case 1: given a pod with a ControllerRef whose labels change, then only its owner is enqueued', () => {
    const old = base({ resourceVersion: '1', ownerReferences: [refTo(rc1)] });
    assert.deepEqual(
      onPodEvent(
        RC,
        'Applied',
        base({ resourceVersion: '2', ownerReferences: [refTo(rc1)], labels: { bar: 'foo' } }),
        old,
        rcs,
      ).enqueue,
      ['default/foobar'],
    );
  });
  it('case 2: given the ControllerRef removed (orphaned), then the label-matching RC is enqueued', () => {
    const old = base({ resourceVersion: '1', labels: { bar: 'foo' }, ownerReferences: [refTo(rc2)] });
    assert.deepEqual(
      onPodEvent(RC, 'Applied', base({ resourceVersion: '2', labels: { bar: 'foo' }, ownerReferences: [] }), old, rcs)
        .enqueue,
      ['default/barfoo'],
    );
  });
  it('case 3: given the ControllerRef to another RC removed, then both the former owner and the label-matching RC are enqueued', () => {
    const old = base({ resourceVersion: '1', labels: { bar: 'foo' }, ownerReferences: [refTo(rc1)] });
    assert.deepEqual(
      onPodEvent(
        RC,
        'Applied',
        base({ resourceVersion: '2', labels: { bar: 'foo' }, ownerReferences: [] }),
        old,
        rcs,
      ).enqueue.toSorted(),
      ['default/barfoo', 'default/foobar'],
    );
  });
  it('case 4: given the ControllerRef kept and the labels changed, then the owner is enqueued', () => {
    const old = base({ resourceVersion: '1', labels: LABELS, ownerReferences: [refTo(rc2)] });
    assert.deepEqual(
      onPodEvent(
        RC,
        'Applied',
        base({ resourceVersion: '2', labels: { bar: 'foo' }, ownerReferences: [refTo(rc2)] }),
        old,
        rcs,
      ).enqueue,
      ['default/barfoo'],
    );
  });
  it('given the same resourceVersion (a resync), then nothing', () => {
    const pod = base({ resourceVersion: '1' });
    assert.deepEqual(onPodEvent(RC, 'Applied', pod, pod, rcs), { enqueue: [] });
  });
});

describe('updatePod: NotReady → Ready with minReadySeconds', () => {
  it('given an owned pod became Ready and the RC has minReadySeconds=10, then the RC is also enqueued after exactly 10 s (v1.37.2: no extra second)', () => {
    const slow = newRc(1, LABELS, { spec: { minReadySeconds: 10 } });
    const old = newPod('p', slow, { ready: false });
    const cur = withMeta(newPod('p', slow, { readySince: at(0) }), { resourceVersion: '2' });
    assert.deepEqual(onPodEvent(RC, 'Applied', cur, old, listerOf([slow], SET_INDEXERS)), {
      enqueue: ['default/foobar'],
      enqueueAfterMs: { key: 'default/foobar', ms: 10_000 },
    });
  });
});

describe('TestOverlappingRSs', () => {
  it('given 9 RCs with identical selectors and a pod with a ControllerRef to the 4th, then only that one is enqueued', () => {
    const many = Array.from({ length: 9 }, (_, j) =>
      newRc(1, LABELS, {
        metadata: { name: `rc${j + 1}`, uid: `uid-rc${j + 1}`, creationTimestamp: T0.toISOString() },
      }),
    );
    const pod = newPod('pod', many[3]!);
    assert.deepEqual(onPodEvent(RC, 'Applied', pod, undefined, listerOf(many, SET_INDEXERS)).enqueue, ['default/rc4']);
  });
});

describe('TestDeletionTimestamp', () => {
  const deleting = withMeta(newPod('pod', rc1, { phase: 'Pending' }), {
    deletionTimestamp: T0.toISOString(),
    resourceVersion: '1',
  });
  const deletion = { setKey: 'default/foobar', kind: 'deletion', podKey: 'default/pod' };
  it('given a pod added with a deletionTimestamp, then it is a deletion, not a creation', () => {
    assert.deepEqual(onPodEvent(RC, 'Applied', deleting, undefined, rcs), {
      enqueue: ['default/foobar'],
      observed: deletion,
    });
  });
  it('given an update that sets the deletionTimestamp, then it is a deletion', () => {
    const old = withMeta(newPod('pod', rc1, { phase: 'Pending' }), { resourceVersion: '0' });
    assert.deepEqual(onPodEvent(RC, 'Applied', deleting, old, rcs).observed, deletion);
  });
  it('given an update of an already deleting pod that also changed its labels, then one deletion observation for the pod', () => {
    const old = withMeta(deleting, { resourceVersion: '0', labels: { foo: 'bar', x: 'y' } });
    assert.deepEqual(onPodEvent(RC, 'Applied', deleting, old, rcs), {
      enqueue: ['default/foobar'],
      observed: deletion,
    });
  });
});

describe('TestWatchControllers / TestExpectationsOnRecreate (RC events)', () => {
  it('given an RC added or updated, then it is enqueued and its expectations kept', () => {
    assert.deepEqual(onSetEvent('Applied', rc1, undefined), { enqueue: ['default/foobar'], deleteExpectations: [] });
    assert.deepEqual(onSetEvent('Applied', rc1, rc1), { enqueue: ['default/foobar'], deleteExpectations: [] });
  });
  it('given an RC deleted, or replaced by one with another UID, then its expectations are deleted and it is enqueued', () => {
    assert.deepEqual(onSetEvent('Deleted', rc1, undefined), {
      enqueue: ['default/foobar'],
      deleteExpectations: ['default/foobar'],
    });
    const recreated = newRc(1, LABELS, { metadata: { uid: 'new-uid' } });
    assert.deepEqual(onSetEvent('Applied', recreated, rc1), {
      enqueue: ['default/foobar'],
      deleteExpectations: ['default/foobar'],
    });
  });
});

describe('TestGetReplicaSetsWithSameController / TestRelatedPodsLookup', () => {
  const owner: OwnerReference = { apiVersion: 'v1', kind: 'Owner', name: 'o', uid: 'owner-uid', controller: true };
  const a = newRc(1, { app: 'a' }, { metadata: { name: 'a', uid: 'ua', ownerReferences: [owner] } });
  const b = newRc(
    1,
    { app: 'b' },
    { metadata: { name: 'b', uid: 'ub', ownerReferences: [owner], deletionTimestamp: T0.toISOString() } },
  );
  const unrelated = newRc(1, { app: 'c' }, { metadata: { name: 'c', uid: 'uc' } });
  const pods = listerOf([newPod('a1', a), newPod('b1', b), newPod('c1', unrelated)], POD_INDEXERS);
  const all = listerOf([a, b, unrelated], SET_INDEXERS);
  it('given sibling RCs (one pending deletion) under one controller, then the pods of both are related, not the unrelated ones', () => {
    assert.deepEqual(
      getIndirectlyRelatedPods(RC, a, all, pods)
        .map((p) => p.metadata.name)
        .sort(),
      ['a1', 'b1'],
    );
  });
  it('given an RC alone under its controller, then only its own pods are related', () => {
    assert.deepEqual(
      getIndirectlyRelatedPods(RC, a, listerOf([a, unrelated], SET_INDEXERS), pods).map((p) => p.metadata.name),
      ['a1'],
    );
  });
  it('given an RC without a controller, then no related pods (only its own are ranked)', () => {
    assert.deepEqual(getIndirectlyRelatedPods(RC, unrelated, all, pods), []);
  });
});

describe('filterPodsByOwner (controller.FilterPodsByOwner with includeOrphanedPods)', () => {
  it("given pods of the RC, of another RC, of a namesake RC and orphans in two namespaces, then it finds the RC's pods and its namespace's orphans", () => {
    const namesake: OwnerReference = { ...refTo(rc1), uid: 'uid-of-a-deleted-foobar' };
    const pods = listerOf(
      [
        newPod('mine', rc1),
        newPod('theirs', rc2),
        withMeta(newPod('namesake', rc1), { ownerReferences: [namesake] }),
        newPod('orphan', rc1, { owned: false }),
        withMeta(newPod('far-orphan', rc1, { owned: false }), { namespace: 'other' }),
        withMeta(newPod('far-mine', rc1), { namespace: 'other' }),
      ],
      POD_INDEXERS,
    );
    assert.deepEqual(
      filterPodsByOwner(RC, pods, rc1)
        .map((p) => p.metadata.name)
        .sort(),
      ['mine', 'orphan'],
    );
  });
});
