import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { at, newNode, newPod, noExecute, T0, tolerate } from '../pods-not-ready/node-pods.fixture.ts';
import { actions, taintEvictionWorld } from './taint-eviction.fixture.ts';

const EVICT = ['Marking for deletion Pod default/pod1', 'patch', 'delete'];
const CANCEL = 'Cancelling deletion of Pod default/pod1';
const node1 = newNode('node1');
const tainted = (...indices: number[]) => newNode('node1', { taints: indices.map((i) => noExecute(i, T0)) });

describe('pod events (taint_eviction_test.go TestCreatePod)', () => {
  const cases = [
    ['not scheduled', newPod('pod1', ''), tainted(1), []],
    ['scheduled on an untainted node', newPod('pod1', 'node1'), node1, []],
    ['scheduled on a tainted node', newPod('pod1', 'node1'), tainted(1), EVICT],
    [
      'scheduled on a tainted node with a finite toleration',
      newPod('pod1', 'node1', [tolerate(1, 100)]),
      tainted(1),
      [],
    ],
    ['scheduled on a tainted node with an infinite toleration', newPod('pod1', 'node1', [tolerate(1)]), tainted(1), []],
    [
      'scheduled on a tainted node with an infinite toleration of another taint',
      newPod('pod1', 'node1', [tolerate(2)]),
      tainted(1),
      EVICT,
    ],
  ] as const;
  for (const [description, pod, node, expected] of cases) {
    it(`given a pod ${description}, when it is created, then it is enqueued and ${expected.length === 0 ? 'not evicted' : 'evicted'}`, () => {
      const world = taintEvictionWorld([], [node]);
      assert.deepEqual(world.putPod(pod), ['default/pod1']);
      assert.deepEqual(actions(world.sync('default/pod1', T0)), expected);
    });
  }
  it('given a finite toleration of 100s, then the eviction is due in 100s (a requeue) and carried out then', () => {
    const world = taintEvictionWorld([newPod('pod1', 'node1', [tolerate(1, 100)])], [tainted(1)]);
    assert.equal(world.sync('default/pod1', T0).requeueAfterMs, 100_000);
    assert.deepEqual(actions(world.sync('default/pod1', at(100_000))), EVICT);
  });

  it('given an eviction carried out 2 s after it was due, then one deletion is counted with its 2 s (pod_deletions_total, pod_deletion_duration_seconds)', () => {
    const deleted: number[] = [];
    const world = taintEvictionWorld([newPod('pod1', 'node1', [tolerate(1, 100)])], [tainted(1)], {
      podDeleted: (s) => deleted.push(s),
    });
    world.sync('default/pod1', T0);
    world.sync('default/pod1', at(102_000));
    world.sync('default/pod1', at(103_000));
    assert.deepEqual(deleted, [2]);
  });
});

describe('pod deletion (TestDeletePod)', () => {
  it('given a deleted pod without a pending eviction, then it is enqueued and nothing is written', () => {
    const pod = newPod('pod1', 'node1');
    const world = taintEvictionWorld([pod], [tainted(1)]);
    assert.deepEqual(world.removePod(pod), ['default/pod1']);
    assert.deepEqual(actions(world.sync('default/pod1', T0)), []);
  });
  it('given a deleted pod with a pending eviction, then the eviction is cancelled with its event', () => {
    const pod = newPod('pod1', 'node1', [tolerate(1, 100)]);
    const world = taintEvictionWorld([pod], [tainted(1)]);
    world.sync('default/pod1', T0);
    world.removePod(pod);
    assert.deepEqual(actions(world.sync('default/pod1', at(1000))), [CANCEL]);
  });
});

describe('pod updates (TestUpdatePod)', () => {
  it('given a pod scheduled onto a tainted node, then it is evicted', () => {
    const world = taintEvictionWorld([newPod('pod1', '')], [tainted(1)]);
    assert.deepEqual(world.putPod(newPod('pod1', 'node1')), ['default/pod1']);
    assert.deepEqual(actions(world.sync('default/pod1', T0)), EVICT);
  });
  it('given a pod with an infinite toleration scheduled onto a tainted node, then it is not evicted', () => {
    const world = taintEvictionWorld([newPod('pod1', '', [tolerate(1)])], [tainted(1)]);
    world.putPod(newPod('pod1', 'node1', [tolerate(1)]));
    assert.deepEqual(actions(world.sync('default/pod1', T0)), []);
  });
  it('given a pending eviction, when the toleration is removed, then the eviction is cancelled and the pod evicted now', () => {
    const world = taintEvictionWorld([newPod('pod1', 'node1', [tolerate(1, 100)])], [tainted(1)]);
    world.sync('default/pod1', T0);
    assert.deepEqual(world.putPod(newPod('pod1', 'node1')), ['default/pod1']);
    assert.deepEqual(actions(world.sync('default/pod1', at(10))), [CANCEL, ...EVICT]);
  });
  it('given a pending eviction after 1s, when the toleration is lengthened to 100s, then the pod is still evicted after 1s', () => {
    const world = taintEvictionWorld([newPod('pod1', 'node1', [tolerate(1, 1)])], [tainted(1)]);
    assert.equal(world.sync('default/pod1', T0).requeueAfterMs, 1000);
    world.putPod(newPod('pod1', 'node1', [tolerate(1, 100)]));
    assert.equal(world.sync('default/pod1', at(10)).requeueAfterMs, 990);
    assert.deepEqual(actions(world.sync('default/pod1', at(1000))), EVICT);
  });
  it('given an update changing neither tolerations nor nodeName, then nothing is enqueued', () => {
    const pod = newPod('pod1', 'node1');
    const world = taintEvictionWorld([pod], [node1]);
    assert.deepEqual(
      world.putPod({ ...pod, metadata: { ...pod.metadata, labels: { a: 'b' }, resourceVersion: '2' } }),
      [],
    );
  });
});

describe('node events (TestCreateNode, TestDeleteNode, TestUpdateNode)', () => {
  const cases = [
    ['an untainted node', newPod('pod1', 'node1'), node1, []],
    ['a tainted node', newPod('pod1', 'node1'), tainted(1), EVICT],
    ['a tainted node its pod tolerates forever', newPod('pod1', 'node1', [tolerate(1)]), tainted(1), []],
  ] as const;
  for (const [description, pod, node, expected] of cases) {
    it(`given ${description} created with an assigned pod, then the pod is enqueued and ${expected.length === 0 ? 'not evicted' : 'evicted'}`, () => {
      const world = taintEvictionWorld([pod], []);
      assert.deepEqual(world.putNode(node), ['default/pod1']);
      assert.deepEqual(actions(world.sync('default/pod1', T0)), expected);
    });
  }
  it('given a deleted node, then nothing is enqueued', () => {
    const world = taintEvictionWorld([newPod('pod1', 'node1')], [tainted(1)]);
    assert.deepEqual(world.removeNode(tainted(1)), []);
  });
  const updates = [
    ['an added taint', newPod('pod1', 'node1'), [1], EVICT],
    ['an added taint tolerated for 100s', newPod('pod1', 'node1', [tolerate(1, 100)]), [1], []],
    ['two added taints, one tolerated', newPod('pod1', 'node1', [tolerate(1, 100)]), [1, 2], EVICT],
  ] as const;
  for (const [description, pod, taints, expected] of updates) {
    it(`given ${description}, then the node's pod is ${expected.length === 0 ? 'not evicted' : 'evicted'}`, () => {
      const world = taintEvictionWorld([pod], [node1]);
      assert.deepEqual(world.putNode(tainted(...taints)), ['default/pod1']);
      assert.deepEqual(actions(world.sync('default/pod1', T0)), expected);
    });
  }
  it('given a pending eviction after 1s, when the taint is removed, then it is cancelled and nothing is deleted after 1.5s', () => {
    const world = taintEvictionWorld([newPod('pod1', 'node1', [tolerate(1, 1)])], [tainted(1)]);
    world.sync('default/pod1', T0);
    assert.deepEqual(world.putNode(node1), ['default/pod1']);
    assert.deepEqual(actions(world.sync('default/pod1', at(10))), [CANCEL]);
    assert.deepEqual(actions(world.sync('default/pod1', at(1500))), []);
  });
  it('given tolerations of 1s and 100s for two added taints, then the pod is evicted when the first runs out', () => {
    const world = taintEvictionWorld([newPod('pod1', 'node1', [tolerate(1, 1), tolerate(2, 100)])], [node1]);
    world.putNode(tainted(1, 2));
    assert.equal(world.sync('default/pod1', T0).requeueAfterMs, 1000);
    assert.deepEqual(actions(world.sync('default/pod1', at(1000))), EVICT);
  });
  it('given only NoSchedule taints change, then nothing is enqueued', () => {
    const world = taintEvictionWorld([newPod('pod1', 'node1')], [node1]);
    assert.deepEqual(world.putNode(newNode('node1', { taints: [{ key: 'k', effect: 'NoSchedule' }] })), []);
  });
});
