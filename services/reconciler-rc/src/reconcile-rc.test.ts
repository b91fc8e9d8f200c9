import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyMutations, objectNames } from '@kcm-bus/k8s/cluster.fixture.ts';
import type { ReplicationController } from '@kcm-bus/k8s/core-v1.ts';
import { verbs } from '@kcm-bus/k8s/reconcile.fixture.ts';
import { generatedName } from '@kcm-bus/runtime/mutation/index.ts';
import { newCluster } from './cluster.fixture.ts';
import { newPod, newRc, T0 } from './rc.fixture.ts';
import { convergeRc, podWrites, sync, UNSATISFIED } from './sync.fixture.ts';

const KEY = 'default/foobar';
const bodyOf = (text: string | null): Record<string, unknown> => JSON.parse(text ?? 'null') as Record<string, unknown>;

describe('TestSyncReplicaSetDoesNothing', () => {
  it('given 2 matching Running pods and replicas=2 with status up to date, when reconciled, then nothing is written', () => {
    const rc = newRc(2, undefined, {
      status: { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2 },
    });
    const c = newCluster([rc], [newPod('pod0', rc), newPod('pod1', rc)]);
    assert.deepEqual(sync(c, KEY), { mutations: [] });
    assert.equal(convergeRc(c, KEY), 0);
  });
});

describe('syncReplicaSet: the RC is gone', () => {
  it('given no RC under the key, when reconciled, then its expectations are deleted and nothing is written', () => {
    assert.deepEqual(sync(newCluster([]), KEY), { mutations: [], expectations: { type: 'DeleteExpectations' } });
  });
});

describe('syncReplicaSet: scale up (manageReplicas, GetPodFromTemplate)', () => {
  const template = {
    metadata: { labels: { foo: 'bar', tier: 'web' }, annotations: { a: '1' }, finalizers: ['example.com/keep'] },
    spec: { containers: [{ name: 'c', image: 'foo/bar' }], nodeSelector: { baz: 'blah' } },
  };
  const rc = newRc(3, undefined, { spec: { template } });

  it('given no pods, when reconciled, then 3 pods are created from the template as one slow-start run, expected, and announced', () => {
    const result = sync(newCluster([rc]), KEY);
    const [create] = result.mutations;
    assert.deepEqual(verbs(result), { Create: 3 });
    assert.deepEqual(result.expectations, {
      type: 'ExpectCreations',
      objectKeys: result.mutations.map((m) => `default/${generatedName('foobar-', m.id)}`),
    });
    assert.deepEqual(
      result.mutations.map((m) => m.slowStart),
      [0, 1, 2].map((index) => ({ run: create!.id, index, size: 3 })),
    );
    assert.deepEqual(create!.target, {
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: 'default',
      name: '',
      resource: 'pods',
      subresource: null,
    });
    assert.deepEqual(bodyOf(create!.body), {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: 'foobar-',
        namespace: 'default',
        labels: template.metadata.labels,
        annotations: { a: '1' },
        finalizers: ['example.com/keep'],
        ownerReferences: [
          {
            apiVersion: 'v1',
            kind: 'ReplicationController',
            name: 'foobar',
            uid: 'rc-uid-foobar',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: template.spec,
    });
    assert.equal(create!.createdAt, T0.toISOString());
    assert.equal(create!.reconcileKey, KEY);
    assert.deepEqual(create!.event, {
      involvedObject: {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        namespace: 'default',
        name: 'foobar',
        uid: 'rc-uid-foobar',
        resourceVersion: '18',
        fieldPath: null,
      },
      type: 'Normal',
      reason: 'SuccessfulCreate',
      message: `Created pod: ${generatedName('foobar-', create!.id)}`,
      source: { component: 'replication-controller', host: null },
    });
  });

  it('given the same input twice, when reconciled, then the mutation ids are the same (a replay names the same pods)', () => {
    assert.deepEqual(
      sync(newCluster([rc]), KEY).mutations.map((m) => m.id),
      sync(newCluster([rc]), KEY).mutations.map((m) => m.id),
    );
  });

  it('given the created pods, when they land (Applied), then the SuccessfulCreate event attached to each Create named its pod', () => {
    const c = newCluster([rc]);
    const result = sync(c, KEY);
    const { results } = applyMutations(c, result.mutations, T0);
    assert.deepEqual(
      results.map((r) => r.outcome),
      ['Applied', 'Applied', 'Applied'],
    );
    assert.deepEqual(
      result.mutations.map((m) => m.event!.message).sort(),
      objectNames(c, 'pods').map((name) => `Created pod: ${name}`),
    );
  });

  it('given no pods, when reconciled until nothing is left to do, then 3 pods exist and the status says so', () => {
    const c = newCluster([rc]);
    assert.equal(convergeRc(c, KEY), 2, 'the creates, then the status');
    assert.equal(c.objects.pods.size, 3);
    assert.deepEqual(c.objects.replicationcontrollers.get(KEY)!.status, {
      replicas: 3,
      fullyLabeledReplicas: 3,
      readyReplicas: 0,
      availableReplicas: 0,
      observedGeneration: 1,
    });
  });
});

describe('syncReplicaSet: scale down (manageReplicas, getPodsToDelete)', () => {
  it('given 3 pods and replicas=1, when reconciled, then the 2 least valuable are deleted with UID preconditions, expected, each carrying its SuccessfulDelete', () => {
    const rc = newRc(1);
    const c = newCluster(
      [rc],
      [
        newPod('running', rc, { node: 'n1' }),
        newPod('pending', rc, { phase: 'Pending', node: 'n1' }),
        newPod('unscheduled', rc, { phase: 'Pending' }),
      ],
    );
    const result = sync(c, KEY);
    const deletes = result.mutations.filter((m) => m.verb === 'Delete');
    assert.deepEqual(
      deletes.map((m) => [m.target.name, m.preconditions.uid]),
      [
        ['unscheduled', 'uid-unscheduled'],
        ['pending', 'uid-pending'],
      ],
    );
    assert.deepEqual(result.expectations, {
      type: 'ExpectDeletions',
      objectKeys: ['default/unscheduled', 'default/pending'],
    });
    const events = deletes.map((m) => `${m.event!.reason} ${m.event!.message}`);
    assert.deepEqual(events, ['SuccessfulDelete Deleted pod: unscheduled', 'SuccessfulDelete Deleted pod: pending']);
    convergeRc(c, KEY);
    assert.deepEqual(objectNames(c, 'pods'), ['running']);
  });
});

describe('TestRSSyncExpectations', () => {
  it('given unsatisfied expectations and one pod missing, when reconciled, then no pod is written, only the status', () => {
    const rc = newRc(2);
    const c = newCluster([rc], [newPod('pod0', rc, { phase: 'Pending' })]);
    const result = sync(c, KEY, { expectations: UNSATISFIED });
    assert.deepEqual(podWrites(result), { creates: 0, deletes: 0, patches: 0 });
    assert.deepEqual(verbs(result), { UpdateStatus: 1 });
    assert.equal(result.expectations, undefined);
  });
});

describe('TestSyncReplicaSetDormancy', () => {
  it('given a sequence of syncs, then expectations block creates but not status updates, and a failed create is retried', () => {
    const status = { replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1 };
    const rc = newRc(2, undefined, { status });
    const c = newCluster([rc], [newPod('pod0', rc)]);
    // Creates a replica and sets expectations.
    const first = sync(c, KEY);
    assert.deepEqual(podWrites(first), { creates: 1, deletes: 0, patches: 0 });
    assert.deepEqual(first.expectations, {
      type: 'ExpectCreations',
      objectKeys: [`default/${generatedName('foobar-', first.mutations[0]!.id)}`],
    });
    // Expectations prevent replicas but not an update of the status.
    c.objects.replicationcontrollers.set(KEY, newRc(2, undefined, { status: { replicas: 0 } }));
    const dormant = sync(c, KEY, { expectations: UNSATISFIED });
    assert.deepEqual(verbs(dormant), { UpdateStatus: 1 });
    // The create failed: its result lowered the expectations; the sync reports it and creates nothing.
    c.objects.replicationcontrollers.set(KEY, rc);
    c.writeError = { resource: 'pods', message: 'fake Error' };
    const failures = applyMutations(c, first.mutations, T0).results.filter((r) => r.outcome === 'Failed');
    const failed = sync(c, KEY, { failures });
    assert.deepEqual(podWrites(failed), { creates: 0, deletes: 0, patches: 0 });
    assert.equal(failed.error, 'fake Error');
    // The next sync (rate-limited requeue) tries again.
    c.writeError = undefined;
    assert.deepEqual(podWrites(sync(c, KEY)), { creates: 1, deletes: 0, patches: 0 });
  });
});

describe('TestDeleteControllerAndExpectations', () => {
  it('given an RC with pending creations that is then deleted, when reconciled, then its expectations are deleted and nothing is written', () => {
    const rc = newRc(1);
    const c = newCluster([rc]);
    assert.equal(sync(c, KEY).expectations?.type, 'ExpectCreations');
    c.objects.replicationcontrollers.delete(KEY);
    assert.deepEqual(sync(c, KEY), { mutations: [], expectations: { type: 'DeleteExpectations' } });
  });
});

describe('TestExpectationsOnRecreate', () => {
  it("given an RC deleted and recreated under the same name, when reconciled, then the old RC's pods are not its own and it creates pods", () => {
    const old = newRc(1);
    const c = newCluster([old], [newPod('old-pod', old)]);
    const recreated: ReplicationController = newRc(1, undefined, {
      metadata: { uid: 'rc-uid-2', resourceVersion: '40' },
    });
    c.objects.replicationcontrollers.set(KEY, recreated);
    const result = sync(c, KEY);
    assert.deepEqual(podWrites(result), { creates: 1, deletes: 0, patches: 0 });
    const meta = bodyOf(result.mutations[0]!.body)['metadata'] as { ownerReferences: { uid: string }[] };
    assert.equal(meta.ownerReferences[0]!.uid, 'rc-uid-2');
  });
});

describe('TestControllerUpdateRequeue / TestControllerUpdateStatusWithFailure', () => {
  it('given the last status write failed, when reconciled, then the status is written again from the lister and the sync errs (requeue)', () => {
    const rc = newRc(1, undefined, { status: { replicas: 2 } });
    const c = newCluster([rc], [newPod('pod0', rc)]);
    const first = sync(c, KEY);
    c.objects.replicationcontrollers.set(KEY, { ...rc, metadata: { ...rc.metadata, resourceVersion: '19' } });
    const failures = applyMutations(c, first.mutations, T0).results.filter((r) => r.outcome === 'Conflict');
    assert.equal(failures.length, 1);
    const retry = sync(c, KEY, { failures });
    assert.deepEqual(verbs(retry), { UpdateStatus: 1 });
    assert.equal(retry.mutations[0]!.preconditions.resourceVersion, '19');
    assert.equal(bodyOf(retry.mutations[0]!.body)['status'] !== undefined, true);
    assert.match(retry.error ?? '', /^failed to update status: the object has been modified/);
    assert.equal(convergeRc(c, KEY), 1);
  });
});
