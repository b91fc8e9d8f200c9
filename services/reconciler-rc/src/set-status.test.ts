import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newCluster } from './cluster.fixture.ts';
import type { ReplicationControllerStatus } from '@kcm-bus/k8s/core-v1.ts';
import { verbs } from '@kcm-bus/k8s/reconcile.fixture.ts';
import { at, newPod, newRc, T0 } from './rc.fixture.ts';
import { convergeRc, sync } from './sync.fixture.ts';

const KEY = 'default/foobar';
const statusOf = (body: string | null | undefined): ReplicationControllerStatus =>
  (JSON.parse(body ?? 'null') as { status: ReplicationControllerStatus }).status;

describe('TestReplicaSetAvailabilityCheck', () => {
  it('given minReadySeconds=5 and pods pending / ready now / 2 s / 4.3 s ago, then ready 3, available 0, and a look again exactly when the first becomes available (v1.37.2: no +1 s)', () => {
    const rc = newRc(4, undefined, { spec: { minReadySeconds: 5 } });
    const now = new Date(T0.getTime() + 4300);
    const pods = [
      newPod('foobar-1', rc, { phase: 'Pending' }),
      newPod('foobar-2', rc, { readySince: at(4.3) }),
      newPod('foobar-3', rc, { readySince: at(2.3) }),
      newPod('foobar-4', rc, { readySince: at(0) }),
    ];
    const result = sync(newCluster([rc], pods), KEY, { now });
    const status = statusOf(result.mutations.find((m) => m.verb === 'UpdateStatus')?.body);
    assert.deepEqual([status.readyReplicas, status.availableReplicas], [3, 0]);
    assert.equal(result.requeueAfterMs, 700);
  });

  it('given a ready pod not yet available and the previous status write failed, when reconciled, then it errs and plans no requeue', () => {
    const rc = newRc(1, undefined, { spec: { minReadySeconds: 5 } });
    const failure = {
      mutationId: 'm',
      controller: 'replicationcontroller-controller',
      verb: 'UpdateStatus' as const,
      target: {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        namespace: 'default',
        name: 'foobar',
        resource: 'replicationcontrollers',
        subresource: null,
      },
      outcome: 'Conflict' as const,
      status: 409,
      reason: 'Conflict',
      message: 'the object has been modified',
      name: 'foobar',
      resourceVersion: null,
      uid: null,
      attempts: 1,
      appliedAt: T0.toISOString(),
      reconcileKey: KEY,
    };
    const result = sync(newCluster([rc], [newPod('p', rc, { readySince: at(0) })]), KEY, { failures: [failure] });
    assert.equal(result.error, 'failed to update status: the object has been modified');
    assert.equal(result.requeueAfterMs, undefined);
  });

  it("given the status write conflicted and the view is not known fresh, then no status is sent: the error and a fresh read (updateReplicaSetStatus's GET); the fresh sync sends it on the fresh RC", () => {
    const rc = newRc(1, undefined, { status: { replicas: 0 } });
    const c = newCluster([rc], [newPod('p', rc)]);
    const failure = {
      mutationId: 'm',
      controller: 'replicationcontroller-controller',
      verb: 'UpdateStatus' as const,
      target: {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        namespace: 'default',
        name: 'foobar',
        resource: 'replicationcontrollers',
        subresource: null,
      },
      outcome: 'Conflict' as const,
      status: 409,
      reason: 'Conflict',
      message: 'the object has been modified',
      name: 'foobar',
      resourceVersion: null,
      uid: null,
      attempts: 1,
      appliedAt: T0.toISOString(),
      reconcileKey: KEY,
    };
    const stale = sync(c, KEY, { failures: [failure], fresh: false });
    assert.deepEqual(
      [verbs(stale), stale.freshRead, stale.error],
      [{}, true, 'failed to update status: the object has been modified'],
    );
    const retry = sync(c, KEY, { fresh: true });
    assert.deepEqual(
      [verbs(retry), retry.freshRead, statusOf(retry.mutations[0]?.body).replicas],
      [{ UpdateStatus: 1 }, undefined, 1],
    );
  });

  it('given every ready pod is available, then no availability requeue', () => {
    const rc = newRc(1, undefined, { spec: { minReadySeconds: 5 } });
    assert.equal(sync(newCluster([rc], [newPod('p', rc, { readySince: at(-60) })]), KEY).requeueAfterMs, undefined);
  });
});

describe('TestReadyAndAvailableReplicas (integration, reconcile-level)', () => {
  it('given minReadySeconds=3600 and pods not ready / ready now / ready 2 h ago, then replicas 3, ready 2, available 1', () => {
    const rc = newRc(3, undefined, { spec: { minReadySeconds: 3600 } });
    const pods = [
      newPod('a', rc, { ready: false }),
      newPod('b', rc, { readySince: at(0) }),
      newPod('c', rc, { readySince: at(-7200) }),
    ];
    const status = statusOf(sync(newCluster([rc], pods), KEY).mutations.find((m) => m.verb === 'UpdateStatus')?.body);
    assert.deepEqual([status.replicas, status.readyReplicas, status.availableReplicas], [3, 2, 1]);
  });
});

describe('TestFullyLabeledReplicas (integration, reconcile-level)', () => {
  it('given template labels beyond the selector and one of 2 pods carrying them all, then fullyLabeledReplicas is 1', () => {
    const rc = newRc(2, undefined, {
      spec: { template: { metadata: { labels: { foo: 'bar', extra: 'x' } }, spec: {} } },
    });
    const pods = [newPod('a', rc), newPod('b', rc, { labels: { foo: 'bar', extra: 'x' } })];
    const status = statusOf(sync(newCluster([rc], pods), KEY).mutations.find((m) => m.verb === 'UpdateStatus')?.body);
    assert.deepEqual([status.replicas, status.fullyLabeledReplicas], [2, 1]);
  });
});

describe('TestSpecReplicasChange (integration, reconcile-level): status only when it changed, observedGeneration', () => {
  it('given the status already holds, then no write; given only the generation moved (template change), then the status is written with it', () => {
    const status = {
      replicas: 1,
      fullyLabeledReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      observedGeneration: 1,
    };
    const rc = newRc(1, undefined, { status });
    assert.deepEqual(sync(newCluster([rc], [newPod('a', rc)]), KEY), { mutations: [] });
    const bumped = newRc(1, undefined, { status, metadata: { generation: 2 } });
    const result = sync(newCluster([bumped], [newPod('a', bumped)]), KEY);
    assert.deepEqual(verbs(result), { UpdateStatus: 1 });
    assert.deepEqual(statusOf(result.mutations[0]!.body), { ...status, observedGeneration: 2 });
  });

  it('given scaling 2→3→0→2, when reconciled to the end each time, then status.replicas follows', () => {
    const c = newCluster([newRc(2)]);
    for (const replicas of [2, 3, 0, 2]) {
      const rc = c.objects.replicationcontrollers.get(KEY)!;
      c.objects.replicationcontrollers.set(KEY, {
        ...rc,
        spec: { ...rc.spec, replicas },
        metadata: { ...rc.metadata, generation: (rc.metadata.generation ?? 0) + 1 },
      });
      convergeRc(c, KEY);
      assert.deepEqual(
        [
          c.objects.pods.size,
          c.objects.replicationcontrollers.get(KEY)!.status!.replicas,
          c.objects.replicationcontrollers.get(KEY)!.status!.observedGeneration,
        ],
        [replicas, replicas, c.objects.replicationcontrollers.get(KEY)!.metadata.generation],
      );
    }
  });
});

describe('TestDeletingAndFailedPods (integration, reconcile-level)', () => {
  it('given replicas=2, one pod terminating (held by a finalizer) and one Failed, then 2 replacements: 4 pods, status.replicas 2', () => {
    const rc = newRc(2);
    const c = newCluster(
      [rc],
      [newPod('deleting', rc, { deleting: T0.toISOString() }), newPod('failed', rc, { phase: 'Failed' })],
    );
    convergeRc(c, KEY);
    assert.equal(c.objects.pods.size, 4);
    assert.equal(c.objects.replicationcontrollers.get(KEY)!.status!.replicas, 2);
  });
});

describe('TestOverlappingRCs (integration, reconcile-level)', () => {
  it('given two RCs with identical selectors (1 and 2 replicas), when both reconcile to the end, then 3 pods and each status matches its spec', () => {
    const one = newRc(1);
    const two = newRc(2, undefined, { metadata: { name: 'other', uid: 'rc-uid-other' } });
    const c = newCluster([one, two]);
    for (let i = 0; i < 3; i++) for (const key of [KEY, 'default/other']) convergeRc(c, key);
    assert.equal(c.objects.pods.size, 3);
    assert.deepEqual(
      [
        c.objects.replicationcontrollers.get(KEY)!.status!.replicas,
        c.objects.replicationcontrollers.get('default/other')!.status!.replicas,
      ],
      [1, 2],
    );
  });
});
