import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newCluster } from '@kcm-bus/k8s/cluster.fixture.ts';
import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import type { Node } from '@kcm-bus/k8s/node-v1.ts';
import { converge } from '@kcm-bus/k8s/reconcile.fixture.ts';
import { applied, watermarksAt, deleted, input, newNode, newPod, T0 } from './node-pods.fixture.ts';
import { POD_NODE_NAME_INDEXERS } from './pod-node-name-index.ts';
import { type PodsNotReadyInputs, podsNotReadySpec } from './pods-not-ready-spec.ts';

function given(pods: readonly Pod[], nodes: readonly Node[], watermarks = watermarksAt<PodsNotReadyInputs>(T0)) {
  return podsNotReadySpec({ pods: listerOf(pods, POD_NODE_NAME_INDEXERS), nodes: listerOf(nodes) }, watermarks);
}

const pod0 = newPod('pod0', 'node0');
const unbound = newPod('pod0', '');

describe('processPod (node_lifecycle_controller_test.go TestProcessPodMarkPodNotReady)', () => {
  it('given node health not gathered yet (no watermark of nodes), when pod0 is bound to a not-ready node, then nothing is enqueued', () => {
    const spec = given([pod0], [newNode('node0', { ready: 'False' })], watermarksAt(undefined));
    assert.deepEqual(spec.handlers.pods(applied(pod0)).enqueue, []);
  });
  it('given the scheduled node is ready, when pod0 is bound, then nothing is enqueued and its reconcile writes nothing', () => {
    const spec = given([pod0], [newNode('node0', { ready: 'True' })]);
    assert.deepEqual(spec.handlers.pods(applied(pod0)).enqueue, []);
    assert.deepEqual(spec.reconcile('default/pod0', input(T0)).mutations, []);
  });
  it('given the scheduled node is not ready, when pod0 is bound, then pod0 is marked NotReady with the NodeNotReady event', () => {
    const spec = given([pod0], [newNode('node0', { ready: 'False' })]);
    assert.deepEqual(spec.handlers.pods(applied(pod0, unbound)).enqueue, ['default/pod0']);
    const [m, ...rest] = spec.reconcile('default/pod0', input(T0)).mutations;
    assert.equal(rest.length, 0);
    assert.deepEqual(
      [m?.verb, m?.controller, m?.target.resource, m?.target.name, m?.preconditions],
      ['UpdateStatus', 'node-lifecycle-controller', 'pods', 'pod0', { uid: 'uid-pod0', resourceVersion: '1' }],
    );
    assert.deepEqual((JSON.parse(m!.body!) as Pod).status?.conditions, [
      { type: 'Ready', status: 'False', lastTransitionTime: '2015-01-01T12:00:00Z' },
    ]);
    assert.deepEqual(
      [m?.event?.type, m?.event?.reason, m?.event?.message, m?.event?.source.component, m?.event?.involvedObject.uid],
      ['Warning', 'NodeNotReady', 'Node is not ready', 'node-controller', 'uid-pod0'],
    );
  });
  it('given a pod whose nodeName did not change, or a deleted or restored pod, then nothing is enqueued', () => {
    const spec = given([pod0], [newNode('node0', { ready: 'Unknown' })]);
    const relabelled = { ...pod0, metadata: { ...pod0.metadata, labels: { a: 'b' }, resourceVersion: '2' } };
    assert.deepEqual(spec.handlers.pods(applied(relabelled, pod0)).enqueue, []);
    assert.deepEqual(spec.handlers.pods(deleted(pod0)).enqueue, []);
    assert.deepEqual(spec.handlers.pods(applied(pod0, undefined, false)).enqueue, []);
  });
  it("given the pod's node is unknown here or has no Ready condition, then nothing is enqueued", () => {
    assert.deepEqual(given([pod0], []).handlers.pods(applied(pod0)).enqueue, []);
    assert.deepEqual(given([pod0], [newNode('node0')]).handlers.pods(applied(pod0)).enqueue, []);
  });
});

describe('monitorNodeHealth → MarkPodsNotReady (TestMonitorNodeHealthMarkPodsNotReady, pod part)', () => {
  const pods = [pod0, newPod('pod1', 'node0'), newPod('pod2', 'node1')];
  it('given a node without status (startup grace), when the health part marks it Unknown, then no pod is enqueued (no Ready True before)', () => {
    const spec = given(pods, []);
    assert.deepEqual(
      spec.handlers.nodes(applied(newNode('node0', { ready: 'Unknown' }), newNode('node0'))).enqueue,
      [],
    );
    assert.deepEqual(spec.handlers.nodes(applied(newNode('node0', { ready: 'Unknown' }))).enqueue, []);
  });
  it('given a node Ready True with a recent heartbeat, when it stays True, then no pod is enqueued', () => {
    const ready = newNode('node0', { ready: 'True' });
    assert.deepEqual(given(pods, [ready]).handlers.nodes(applied(ready, ready)).enqueue, []);
  });
  it('given a node Ready True, when it goes Unknown (heartbeat older than the grace period), then its pods are enqueued and marked NotReady', () => {
    const unknown = newNode('node0', { ready: 'Unknown' });
    const spec = given(pods, [unknown]);
    assert.deepEqual(spec.handlers.nodes(applied(unknown, newNode('node0', { ready: 'True' }))).enqueue.toSorted(), [
      'default/pod0',
      'default/pod1',
    ]);
    assert.deepEqual(
      spec.reconcile('default/pod1', input(T0)).mutations.map((m) => m.verb),
      ['UpdateStatus'],
    );
    assert.deepEqual(spec.reconcile('default/pod2', input(T0)).mutations, []);
  });
  it('given the same transition restored (live=false) or a node deleted, then nothing is enqueued', () => {
    const spec = given(pods, []);
    assert.deepEqual(
      spec.handlers.nodes(applied(newNode('node0', { ready: 'False' }), newNode('node0', { ready: 'True' }), false))
        .enqueue,
      [],
    );
    assert.deepEqual(spec.handlers.nodes(deleted(newNode('node0', { ready: 'True' }))).enqueue, []);
  });
});

describe('MarkPodsNotReady: what a pod needs', () => {
  const notReadyNode = newNode('node0', { ready: 'False' });
  it('given a pod without a Ready condition, already not ready, or gone, then nothing is written', () => {
    const bare: Pod = { ...pod0, status: {} };
    const notReady: Pod = { ...pod0, status: { conditions: [{ type: 'Ready', status: 'False' }] } };
    for (const pod of [bare, notReady])
      assert.deepEqual(given([pod], [notReadyNode]).reconcile('default/pod0', input(T0)).mutations, []);
    assert.deepEqual(given([], [notReadyNode]).reconcile('default/pod0', input(T0)).mutations, []);
  });
  it('given a Ready Unknown condition with a reason, then it is set False with its reason kept and other conditions untouched', () => {
    const readyUnknown = { type: 'Ready', status: 'Unknown' as const, reason: 'X' };
    const pod: Pod = { ...pod0, status: { conditions: [{ type: 'PodScheduled', status: 'True' }, readyUnknown] } };
    const [m] = given([pod], [notReadyNode]).reconcile('default/pod0', input(T0)).mutations;
    assert.deepEqual((JSON.parse(m!.body!) as Pod).status?.conditions, [
      { type: 'PodScheduled', status: 'True' },
      { type: 'Ready', status: 'False', reason: 'X', lastTransitionTime: '2015-01-01T12:00:00Z' },
    ]);
  });
  it('given the node became ready again before the sync, then nothing is written', () => {
    assert.deepEqual(
      given([pod0], [newNode('node0', { ready: 'True' })]).reconcile('default/pod0', input(T0)).mutations,
      [],
    );
  });
  it('given a pod marked NotReady, when its write is applied and it is reconciled again, then nothing more (convergence)', () => {
    const cluster = newCluster<{ pods: Pod }>({ pods: [pod0] });
    const reconcile = (key: string) =>
      given([...cluster.objects.pods.values()], [notReadyNode]).reconcile(key, input(T0));
    assert.equal(converge(cluster, 'default/pod0', reconcile, { now: T0 }), 1);
  });
});
