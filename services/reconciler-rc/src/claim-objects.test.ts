import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OwnerReference, Pod } from '@kcm-bus/k8s/core-v1.ts';
import { applyJsonPatch, JsonPatchError } from '@kcm-bus/k8s/json-patch.fixture.ts';
import { adoptOps, claimObjects, newControllerRef, releaseOps } from './claim-objects.ts';
import { newPod, newRc } from './rc.fixture.ts';
import { REPLICATION_CONTROLLERS } from './replica-set-kind.ts';

const rc = newRc(1);
const OWNER = REPLICATION_CONTROLLERS.owner;
const ours = newControllerRef(rc, OWNER);
const statefulSet: OwnerReference = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'ss', uid: 'ss-uid' };
const other: OwnerReference = {
  apiVersion: 'v1',
  kind: 'ReplicationController',
  name: 'other',
  uid: 'other-uid',
  controller: true,
};
const withRefs = (pod: Pod, ownerReferences: readonly OwnerReference[] | undefined): Pod => {
  const { ownerReferences: _gone, ...meta } = pod.metadata;
  return { ...pod, metadata: ownerReferences === undefined ? meta : { ...meta, ownerReferences } };
};
const refsAfter = (pod: Pod, ops: ReturnType<typeof adoptOps>): readonly OwnerReference[] | null | undefined =>
  applyJsonPatch(pod, ops).metadata.ownerReferences;

describe('claimObjects (ClaimObject) over pods', () => {
  it("given ours-matching, ours-not-matching, orphan-matching, orphan-not-matching and someone else's pods, then it claims, releases and adopts as upstream, the adoptee not yet counted as owned", () => {
    const pods = [
      newPod('ours', rc),
      newPod('ours-relabelled', rc, { labels: { foo: 'x' } }),
      newPod('orphan', rc, { owned: false }),
      newPod('orphan-other-labels', rc, { owned: false, labels: { foo: 'x' } }),
      newPod('theirs', rc, { ownerReferences: [other] }),
    ];
    const { claimed, actions } = claimObjects(rc, OWNER, (labels) => labels?.['foo'] === 'bar', pods);
    assert.deepEqual(
      claimed.map((p) => p.metadata.name),
      ['ours'],
    );
    assert.deepEqual(
      actions.map((a) => [a.type, a.object.metadata.name]),
      [
        ['Release', 'ours-relabelled'],
        ['Adopt', 'orphan'],
      ],
    );
  });
});

describe('adoptOps: the guarded adoption patch', () => {
  it('given an orphan without owner references, then the controllerRef is added; if one appeared meanwhile, the patch fails', () => {
    const orphan = newPod('p', rc, { owned: false });
    const ops = adoptOps(orphan, rc, OWNER);
    assert.deepEqual(refsAfter(orphan, ops), [ours]);
    assert.throws(() => applyJsonPatch(withRefs(orphan, [other]), ops), JsonPatchError);
  });

  it('given a StatefulSet as non-controller owner, then ours is appended; if that owner became controller meanwhile, the patch fails', () => {
    const pod = withRefs(newPod('p', rc), [statefulSet]);
    const ops = adoptOps(pod, rc, OWNER);
    assert.deepEqual(refsAfter(pod, ops), [statefulSet, ours]);
    assert.throws(() => applyJsonPatch(withRefs(pod, [{ ...statefulSet, controller: true }]), ops), JsonPatchError);
    assert.throws(() => applyJsonPatch(withRefs(pod, [other]), ops), JsonPatchError);
  });

  it('given our own ref with controller=false, then it is flipped to the controllerRef in place', () => {
    const pod = withRefs(newPod('p', rc), [statefulSet, { ...ours, controller: false, blockOwnerDeletion: false }]);
    assert.deepEqual(refsAfter(pod, adoptOps(pod, rc, OWNER)), [statefulSet, ours]);
  });
});

describe('releaseOps: the guarded release patch', () => {
  it('given a pod we control, then our ref is removed; if the refs moved meanwhile, the patch fails', () => {
    const pod = withRefs(newPod('p', rc), [statefulSet, ours]);
    const ops = releaseOps(pod, rc);
    assert.deepEqual(refsAfter(pod, ops), [statefulSet]);
    assert.throws(() => applyJsonPatch(withRefs(pod, [ours, statefulSet]), ops), JsonPatchError);
  });
});
