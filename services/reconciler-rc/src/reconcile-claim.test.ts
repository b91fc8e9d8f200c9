import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyMutations, changeObject, failuresOf, objectNames } from '@kcm-bus/k8s/cluster.fixture.ts';
import type { OwnerReference, Pod } from '@kcm-bus/k8s/core-v1.ts';
import { controllerOf } from '@kcm-bus/k8s/meta-v1.ts';
import { verbs } from '@kcm-bus/k8s/reconcile.fixture.ts';
import type { MutationResult } from '@kcm-bus/runtime/mutation/index.ts';
import { newCluster } from './cluster.fixture.ts';
import { newPod, newRc, T0 } from './rc.fixture.ts';
import { convergeRc, podWrites, sync } from './sync.fixture.ts';

const KEY = 'default/foobar';
const rc = newRc(2);
const ours: OwnerReference = {
  apiVersion: 'v1',
  kind: 'ReplicationController',
  name: 'foobar',
  uid: 'rc-uid-foobar',
  controller: true,
  blockOwnerDeletion: true,
};
const refsOf = (pod: Pod | undefined): readonly OwnerReference[] => pod?.metadata.ownerReferences ?? [];

describe('TestDoNotPatchPodWithOtherControlRef', () => {
  it('given a matching pod controlled by another RC, when reconciled to the end, then it is never patched and 2 pods are created', () => {
    const other = { ...ours, name: 'AnotherRS', uid: 'other-uid' };
    const c = newCluster([rc], [newPod('pod', rc, { ownerReferences: [other] })]);
    assert.deepEqual(podWrites(sync(c, KEY)), { creates: 2, deletes: 0, patches: 0 });
    convergeRc(c, KEY);
    assert.equal(c.objects.pods.size, 3);
    assert.deepEqual(refsOf(c.objects.pods.get('default/pod')), [other]);
  });
});

describe('TestPatchPodFails', () => {
  it('given 2 orphans whose adoption patches fail, when reconciled again, then the sync errs with the failure and writes nothing', () => {
    const c = newCluster([rc], [newPod('pod1', rc, { owned: false }), newPod('pod2', rc, { owned: false })]);
    const first = sync(c, KEY);
    assert.deepEqual(podWrites(first), { creates: 0, deletes: 0, patches: 2 });
    c.writeError = { resource: 'pods', message: 'fake Error' };
    const failures = failuresOf(applyMutations(c, first.mutations, T0).results);
    const second = sync(c, KEY, { failures });
    assert.deepEqual(second.mutations, []);
    assert.match(second.error ?? '', /fake Error/);
  });
});

describe("canAdopt's recheck: adoption only on a fresh read (upstream: an uncached GET of the RC before the first adoption)", () => {
  it('given an orphan and a view not known fresh, when reconciled, then nothing is written and a fresh read is asked for; the fresh sync adopts', () => {
    const c = newCluster([rc], [newPod('pod1', rc, { owned: false })]);
    const stale = sync(c, KEY, { fresh: false });
    assert.deepEqual([stale.mutations, stale.freshRead, stale.error], [[], true, undefined]);
    const fresh = sync(c, KEY, { fresh: true });
    assert.deepEqual([verbs(fresh), fresh.freshRead], [{ Patch: 1 }, undefined]);
  });

  it('given the fresh read shows the RC being deleted (kubectl delete --cascade=orphan orphaning its pods), when reconciled, then the orphans are not adopted back', () => {
    const c = newCluster([rc], [newPod('pod1', rc, { owned: false })]);
    assert.equal(sync(c, KEY, { fresh: false }).freshRead, true);
    changeObject(c, 'replicationcontrollers', KEY, (o) => ({
      ...o,
      metadata: { ...o.metadata, deletionTimestamp: T0.toISOString(), finalizers: ['orphan'] },
    }));
    assert.deepEqual(podWrites(sync(c, KEY, { fresh: true })), { creates: 0, deletes: 0, patches: 0 });
  });

  it('given a failed create of the last round and an orphan, when reconciled on a stale view, then the failure is still reported while the adoption waits', () => {
    const c = newCluster([rc], [newPod('pod1', rc, { owned: false })]);
    const failed: MutationResult = {
      mutationId: 'm',
      controller: 'replicationcontroller-controller',
      verb: 'Create',
      target: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: '', resource: 'pods', subresource: null },
      outcome: 'Failed',
      status: 403,
      reason: 'Forbidden',
      message: 'exceeded quota',
      name: 'foobar-x',
      resourceVersion: null,
      uid: null,
      attempts: 1,
      appliedAt: T0.toISOString(),
      reconcileKey: KEY,
    };
    const result = sync(c, KEY, { fresh: false, failures: [failed] });
    assert.deepEqual([verbs(result), result.error, result.freshRead], [{ RecordEvent: 1 }, 'exceeded quota', true]);
  });
});

describe('Adoption counts once applied (kcm-bus: the patch outcome arrives one sync later)', () => {
  it('given an orphan and replicas=3, when reconciled, then only the adoption is sent; once it applied, the orphan counts and 2 pods are created', () => {
    const c = newCluster([newRc(3)], [newPod('pod1', rc, { owned: false })]);
    const first = sync(c, KEY);
    assert.deepEqual(verbs(first), { Patch: 1 });
    assert.equal(first.expectations, undefined);
    applyMutations(c, first.mutations, T0);
    assert.deepEqual(podWrites(sync(c, KEY)), { creates: 2, deletes: 0, patches: 0 });
    convergeRc(c, KEY);
    assert.equal(c.objects.pods.size, 3);
  });

  it('given an adoption that failed, when reconciled, then the sync errs on the claim and creates nothing', () => {
    const c = newCluster([newRc(3)], [newPod('pod1', rc, { owned: false })]);
    const first = sync(c, KEY);
    c.writeError = { resource: 'pods', message: 'fake Error' };
    const second = sync(c, KEY, { failures: failuresOf(applyMutations(c, first.mutations, T0).results) });
    assert.deepEqual(podWrites(second), { creates: 0, deletes: 0, patches: 0 });
    assert.match(second.error ?? '', /^failed to claim pods: pod default\/pod1: fake Error$/);
  });
});

describe('ReleasePod ignores IsInvalid (crm:251-261)', () => {
  const released = (status: number): MutationResult => ({
    mutationId: 'm',
    controller: 'replicationcontroller-controller',
    verb: 'Patch',
    target: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'pod1', resource: 'pods', subresource: null },
    outcome: 'Conflict',
    status,
    reason: 'Invalid',
    message: 'the pod no longer has our ref',
    name: 'pod1',
    resourceVersion: null,
    uid: null,
    attempts: 1,
    appliedAt: T0.toISOString(),
    reconcileKey: KEY,
  });

  it('given a release of a relabelled pod answered 422, when reconciled, then it is not an error', () => {
    const c = newCluster(
      [newRc(1)],
      [newPod('pod1', rc, { owned: false, labels: { foo: 'other' } }), newPod('pod2', rc)],
    );
    assert.equal(sync(c, KEY, { failures: [released(422)] }).error, undefined);
  });

  it('given an adoption of a matching pod answered 422, when reconciled, then it is a claim error, as AdoptPod returns it', () => {
    const c = newCluster([newRc(1)], [newPod('pod1', rc, { owned: false })]);
    assert.match(sync(c, KEY, { failures: [released(422)] }).error ?? '', /^failed to claim pods: /);
  });
});

describe('TestDoNotAdoptOrCreateIfBeingDeleted', () => {
  it('given an RC being deleted and a matching orphan, when reconciled, then no patch and no create, but the status is still written', () => {
    const deleting = newRc(2, undefined, {
      metadata: { deletionTimestamp: T0.toISOString() },
      status: { replicas: 2 },
    });
    const c = newCluster([deleting], [newPod('pod1', deleting, { owned: false })]);
    const result = sync(c, KEY);
    assert.deepEqual(podWrites(result), { creates: 0, deletes: 0, patches: 0 });
    assert.deepEqual(verbs(result), { UpdateStatus: 1 });
    assert.equal(JSON.parse(result.mutations[0]!.body!).status.replicas, 0);
  });

  it('given an RC being deleted that owns a pod whose labels no longer match, when reconciled, then the pod is not released', () => {
    const deleting = newRc(1, undefined, { metadata: { deletionTimestamp: T0.toISOString() } });
    const c = newCluster([deleting], [newPod('pod1', deleting, { labels: { foo: 'other' } })]);
    assert.deepEqual(podWrites(sync(c, KEY)), { creates: 0, deletes: 0, patches: 0 });
  });
});

describe('TestDoNotAdoptOrCreateIfBeingDeletedRace (kcm-bus form: no live GET; the patch binds the pod to the UID we saw)', () => {
  it('given the lister shows the RC alive but it was deleted and recreated, when the adoption lands, then the pod names the old UID and the new RC does not count it', () => {
    const c = newCluster([rc], [newPod('pod1', rc, { owned: false })]);
    const adopt = sync(c, KEY);
    c.objects.replicationcontrollers.set(KEY, newRc(2, undefined, { metadata: { uid: 'rc-uid-recreated' } }));
    applyMutations(c, adopt.mutations, T0);
    assert.equal(controllerOf(c.objects.pods.get('default/pod1')!.metadata)?.uid, 'rc-uid-foobar');
    assert.deepEqual(podWrites(sync(c, KEY)), { creates: 2, deletes: 0, patches: 0 });
  });

  it('given the pod changed owners after our view, when the stale adoption is applied, then it fails and the next sync errs without creating', () => {
    const c = newCluster([rc], [newPod('pod1', rc, { owned: false })]);
    const adopt = sync(c, KEY);
    changeObject(c, 'pods', 'default/pod1', (p) => ({
      ...p,
      metadata: { ...p.metadata, ownerReferences: [{ ...ours, name: 'x', uid: 'x-uid' }] },
    }));
    const failures = failuresOf(applyMutations(c, adopt.mutations, T0).results);
    assert.deepEqual(
      failures.map((f) => [f.verb, f.outcome]),
      [['Patch', 'Conflict']],
    );
    const next = sync(c, KEY, { failures });
    assert.deepEqual(next.mutations, []);
    assert.match(next.error ?? '', /^failed to claim pods: pod default\/pod1: /);
  });
});

describe('TestAdoption (integration, reconcile-level)', () => {
  const statefulSet: OwnerReference = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'ss', uid: 'ss-uid' };
  const cases: readonly {
    name: string;
    refs: readonly OwnerReference[] | undefined;
    expected: readonly OwnerReference[];
  }[] = [
    {
      name: 'pod refers rc as an owner, not a controller',
      refs: [{ ...ours, controller: false, blockOwnerDeletion: false }],
      expected: [ours],
    },
    { name: "pod doesn't have owner references", refs: undefined, expected: [ours] },
    { name: 'pod refers rc as a controller', refs: [ours], expected: [ours] },
    {
      name: 'pod refers other rc as the controller, refers the rc as an owner',
      refs: [
        { ...ours, name: 'other', uid: 'other-uid' },
        { ...ours, controller: false },
      ],
      expected: [
        { ...ours, name: 'other', uid: 'other-uid' },
        { ...ours, controller: false },
      ],
    },
    {
      name: 'TestGeneralPodAdoption: a StatefulSet as the only (non-controller) owner',
      refs: [statefulSet],
      expected: [statefulSet, ours],
    },
  ];
  for (const tc of cases) {
    it(`given "${tc.name}", when reconciled to the end, then the pod's owner references are as upstream leaves them`, () => {
      const one = newRc(1);
      const pod = newPod('pod', one, tc.refs === undefined ? { owned: false } : { ownerReferences: tc.refs });
      const c = newCluster([one], [pod]);
      convergeRc(c, KEY);
      assert.deepEqual(refsOf(c.objects.pods.get('default/pod')), tc.expected);
    });
  }
});

describe('TestPodOrphaningAndAdoptionWhenLabelsChange', () => {
  it('given an owned pod relabelled, when reconciled, then it is released and replaced; relabelled back, it is re-adopted and the extra pod deleted', () => {
    const one = newRc(1);
    const c = newCluster([one], [newPod('pod', one)]);
    changeObject(c, 'pods', 'default/pod', (p) => ({ ...p, metadata: { ...p.metadata, labels: { foo: 'other' } } }));
    const release = sync(c, KEY);
    assert.deepEqual(podWrites(release), { creates: 1, deletes: 0, patches: 1 });
    convergeRc(c, KEY);
    assert.deepEqual(refsOf(c.objects.pods.get('default/pod')), []);
    assert.equal(c.objects.pods.size, 2);
    changeObject(c, 'pods', 'default/pod', (p) => ({ ...p, metadata: { ...p.metadata, labels: { foo: 'bar' } } }));
    convergeRc(c, KEY);
    assert.equal(c.objects.pods.size, 1);
    assert.equal(controllerOf([...c.objects.pods.values()][0]!.metadata)?.uid, 'rc-uid-foobar');
  });
});

describe('TestExtraPodsAdoptionAndDeletion', () => {
  it('given 3 matching orphans and replicas=2, when reconciled, then all 3 are adopted, and once adopted 1 is deleted', () => {
    const created = { a: '2026-03-01T11:00:00Z', b: '2026-03-01T11:00:00Z', c: '2026-03-01T11:59:59Z' };
    const c = newCluster(
      [rc],
      (['a', 'b', 'c'] as const).map((n) => newPod(n, rc, { owned: false, created: created[n] })),
    );
    const result = sync(c, KEY);
    assert.deepEqual(podWrites(result), { creates: 0, deletes: 0, patches: 3 });
    applyMutations(c, result.mutations, T0);
    assert.deepEqual(podWrites(sync(c, KEY)), { creates: 0, deletes: 1, patches: 0 });
    convergeRc(c, KEY);
    assert.equal(c.objects.pods.size, 2);
    for (const p of c.objects.pods.values()) assert.deepEqual(refsOf(p), [ours]);
    assert.deepEqual(objectNames(c, 'pods'), ['a', 'b']);
  });
});

describe('claimPods: inactive pods and terminating pods', () => {
  it('given a terminating orphan and a Failed orphan, when reconciled, then neither is adopted and both are replaced', () => {
    const c = newCluster(
      [rc],
      [
        newPod('going', rc, { owned: false, deleting: T0.toISOString() }),
        newPod('failed', rc, { owned: false, phase: 'Failed' }),
      ],
    );
    assert.deepEqual(podWrites(sync(c, KEY)), { creates: 2, deletes: 0, patches: 0 });
  });
});
