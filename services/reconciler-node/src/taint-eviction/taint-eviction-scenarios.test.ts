import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import type { Mutation, MutationResult } from '@kcm-bus/runtime/mutation/index.ts';
import { at, newNode, newPod, noExecute, T0, tolerate } from '../pods-not-ready/node-pods.fixture.ts';
import { actions, taintEvictionWorld } from './taint-eviction.fixture.ts';

const EVICT = ['Marking for deletion Pod default/pod1', 'patch', 'delete'];
const conflict = (m: Mutation): MutationResult => ({
  mutationId: m.id,
  controller: m.controller,
  verb: m.verb,
  target: m.target,
  outcome: 'Conflict',
  status: 409,
  reason: 'Conflict',
  message: 'the object has been modified',
  name: m.target.name,
  resourceVersion: null,
  uid: null,
  attempts: 1,
  appliedAt: T0.toISOString(),
  reconcileKey: m.reconcileKey,
});
const terminating = (pod: Pod): Pod => ({
  ...pod,
  metadata: { ...pod.metadata, deletionTimestamp: T0.toISOString(), resourceVersion: '9' },
});

describe('TestUpdateNodeWithMultipleTaints', () => {
  it('given a pod tolerating taint1 forever and taint2 for 60s, then only the node carrying taint2 schedules an eviction, and dropping taint2 cancels it', () => {
    const pod = newPod('pod1', 'node1', [
      { key: 'testTaint1', operator: 'Exists', effect: 'NoExecute' },
      { key: 'testTaint2', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
    ]);
    const [taint1, taint2] = [noExecute(1, T0), noExecute(2, at(5000))];
    const world = taintEvictionWorld([pod], [newNode('node1')]);
    assert.equal(world.sync('default/pod1', T0).requeueAfterMs, undefined);
    world.putNode(newNode('node1', { taints: [taint1] }));
    assert.deepEqual(world.sync('default/pod1', at(1000)), { mutations: [] });
    world.putNode(newNode('node1', { taints: [taint1, taint2] }));
    assert.equal(world.sync('default/pod1', at(6000)).requeueAfterMs, 59_000);
    world.putNode(newNode('node1', { taints: [taint1] }));
    assert.deepEqual(actions(world.sync('default/pod1', at(7000))), ['Cancelling deletion of Pod default/pod1']);
    assert.deepEqual(actions(world.sync('default/pod1', at(70_000))), []);
  });
});

describe('TestUpdateNodeWithMultiplePods', () => {
  const pods = [
    newPod('pod1', 'node1'),
    newPod('pod2', 'node1', [tolerate(1, 1)]),
    newPod('pod3', 'node1', [tolerate(1)]),
  ];
  it('given pods with no, 1s and infinite tolerations, when taint1 is added, then pod1 is evicted at once, pod2 after 1s, pod3 never', () => {
    const world = taintEvictionWorld(pods, [newNode('node1')]);
    const keys = world.putNode(newNode('node1', { taints: [noExecute(1, T0)] }));
    assert.deepEqual(keys.toSorted(), ['default/pod1', 'default/pod2', 'default/pod3']);
    assert.deepEqual(
      keys.toSorted().map((k) => actions(world.sync(k, T0)).includes('delete')),
      [true, false, false],
    );
    assert.deepEqual(
      keys.toSorted().map((k) => actions(world.sync(k, at(1000))).includes('delete')),
      [false, true, false],
    );
  });
  it('given the same pods, when taint1 and taint2 are added, then all are evicted at once', () => {
    const world = taintEvictionWorld(pods, [newNode('node1')]);
    const keys = world.putNode(newNode('node1', { taints: [noExecute(1, T0), noExecute(2, T0)] }));
    assert.deepEqual(
      keys.toSorted().map((k) => actions(world.sync(k, T0)).includes('delete')),
      [true, true, true],
    );
  });
});

describe('TestEventualConsistency', () => {
  for (const [description, tolerations, evicted] of [
    ['without tolerations', undefined, true],
    ['tolerating 100s', [tolerate(1, 100)], false],
  ] as const) {
    it(`given pod2 ${description} bound only after the node update enqueued pod1, then pod2 is enqueued by its own update and ${evicted ? 'evicted' : 'scheduled'}`, () => {
      const world = taintEvictionWorld([newPod('pod1', 'node1'), newPod('pod2', '', tolerations)], [newNode('node1')]);
      assert.deepEqual(world.putNode(newNode('node1', { taints: [noExecute(1, T0)] })), ['default/pod1']);
      assert.ok(actions(world.sync('default/pod1', T0)).includes('delete'));
      assert.deepEqual(world.putPod(newPod('pod2', 'node1', tolerations)), ['default/pod2']);
      const result = world.sync('default/pod2', T0);
      assert.equal(actions(result).includes('delete'), evicted);
      assert.equal(result.requeueAfterMs, evicted ? undefined : 100_000);
    });
  }
});

describe('a schedule computed from state (not upstream: the timer survives a restart)', () => {
  it('given a member started 200s after the taint was added (timeAdded), with a 300s toleration, then the eviction is due 100s later', () => {
    const world = taintEvictionWorld(
      [newPod('pod1', 'node1', [tolerate(1, 300)])],
      [newNode('node1', { taints: [noExecute(1, T0)] })],
    );
    assert.equal(world.sync('default/pod1', at(200_000)).requeueAfterMs, 100_000);
    assert.deepEqual(actions(world.sync('default/pod1', at(300_000))), EVICT);
  });
  it('given a taint without timeAdded, then the toleration counts from the first sync, kept by later syncs', () => {
    const world = taintEvictionWorld(
      [newPod('pod1', 'node1', [tolerate(1, 300)])],
      [newNode('node1', { taints: [noExecute(1)] })],
    );
    assert.equal(world.sync('default/pod1', at(200_000)).requeueAfterMs, 300_000);
    assert.equal(world.sync('default/pod1', at(250_000)).requeueAfterMs, 250_000);
  });
  it('given restored pod records, then they are enqueued too (a restarted member recomputes)', () => {
    const world = taintEvictionWorld([], [newNode('node1')]);
    assert.deepEqual(world.putPod(newPod('pod1', 'node1'), false), ['default/pod1']);
  });
  it('given the node is deleted while an eviction is pending, then the eviction still happens when due', () => {
    const node = newNode('node1', { taints: [noExecute(1, T0)] });
    const world = taintEvictionWorld([newPod('pod1', 'node1', [tolerate(1, 10)])], [node]);
    world.sync('default/pod1', T0);
    world.removeNode(node);
    assert.equal(world.sync('default/pod1', at(5000)).requeueAfterMs, 5000);
    assert.deepEqual(actions(world.sync('default/pod1', at(10_000))), EVICT);
  });
});

describe('the eviction (deletePodHandler, addConditionAndDeletePod)', () => {
  const pod = { ...newPod('pod1', 'node1'), metadata: { ...newPod('pod1', 'node1').metadata, generation: 3 } };
  const node = newNode('node1', { taints: [noExecute(1, T0)] });
  it('given a pod to evict, then the event, the DisruptionTarget status patch guarded by uid and resourceVersion, and the delete guarded by uid', () => {
    const [event, patch, del] = taintEvictionWorld([pod], [node]).sync('default/pod1', T0).mutations;
    assert.deepEqual(
      [event?.event?.type, event?.event?.reason, event?.event?.source.component, event?.controller],
      ['Normal', 'TaintManagerEviction', 'taint-eviction-controller', 'taint-eviction-controller'],
    );
    assert.deepEqual(
      [patch?.patchType, patch?.target.subresource, patch?.preconditions],
      ['strategic-merge', 'status', { uid: 'uid-pod1', resourceVersion: '1' }],
    );
    assert.deepEqual(JSON.parse(patch!.patch!), {
      status: {
        conditions: [
          {
            type: 'DisruptionTarget',
            status: 'True',
            reason: 'DeletionByTaintManager',
            message: 'Taint manager: deleting due to NoExecute taint',
            lastTransitionTime: '2015-01-01T12:00:00Z',
            observedGeneration: 3,
          },
        ],
      },
    });
    assert.deepEqual([del?.verb, del?.preconditions], ['Delete', { uid: 'uid-pod1', resourceVersion: null }]);
  });
  it('given the DisruptionTarget condition already set, then only the event and the delete', () => {
    const disrupted = {
      type: 'DisruptionTarget',
      status: 'True' as const,
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
    };
    const marked: Pod = { ...pod, status: { conditions: [disrupted] } };
    assert.deepEqual(actions(taintEvictionWorld([marked], [node]).sync('default/pod1', T0)), [
      'Marking for deletion Pod default/pod1',
      'delete',
    ]);
  });
  it('given the eviction applied, when the terminating pod is reconciled again, then nothing more (convergence); a pod already terminating is evicted as any other', () => {
    const world = taintEvictionWorld([pod], [node]);
    world.sync('default/pod1', T0);
    world.putPod(terminating(pod));
    assert.deepEqual(world.sync('default/pod1', at(100)), { mutations: [] });
    assert.deepEqual(actions(taintEvictionWorld([terminating(pod)], [node]).sync('default/pod1', T0)), EVICT);
  });
  it('given the status patch met a Conflict, then the patch and delete are tried again without a second event, at most 5 attempts', () => {
    const world = taintEvictionWorld([pod], [node]);
    let failures = world
      .sync('default/pod1', T0)
      .mutations.filter((m) => m.verb === 'Patch')
      .map(conflict);
    for (let attempt = 2; attempt <= 5; attempt++) {
      const retry = world.sync('default/pod1', at(attempt), failures);
      assert.deepEqual(actions(retry), ['patch', 'delete']);
      failures = retry.mutations.filter((m) => m.verb === 'Patch').map(conflict);
    }
    assert.deepEqual(world.sync('default/pod1', at(6), failures), { mutations: [] });
  });
  it('given an evicted pod recreated under the same name (new uid), then the new pod is decided afresh', () => {
    const world = taintEvictionWorld([pod], [node]);
    world.sync('default/pod1', T0);
    world.putPod({ ...pod, metadata: { ...pod.metadata, uid: 'uid-pod1-b', resourceVersion: '20' } });
    assert.deepEqual(actions(world.sync('default/pod1', at(100))), EVICT);
  });
});
