import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyMutations, failuresOf } from '@kcm-bus/k8s/cluster.fixture.ts';
import { verbs } from '@kcm-bus/k8s/reconcile.fixture.ts';
import type { MutationResult } from '@kcm-bus/runtime/mutation/index.ts';
import { newCluster, type SetCluster } from './cluster.fixture.ts';
import { newPod, newRc, T0 } from './rc.fixture.ts';
import { REPLICA_FAILURE } from './set-status.ts';
import { convergeRc, nextCause, podWrites, sync } from './sync.fixture.ts';

const KEY = 'default/foobar';

/** rounds reconciles and applies until a round writes no pod, returning the create calls of each round. */
function createRounds(c: SetCluster, max = 20): { calls: number[]; failures: MutationResult[] } {
  const calls: number[] = [];
  let failures: MutationResult[] = [];
  for (let i = 0; i < max; i++) {
    const result = sync(c, KEY, { failures, cause: nextCause() });
    const creates = podWrites(result).creates;
    if (creates === 0) return { calls, failures };
    calls.push(creates);
    failures = failuresOf(applyMutations(c, result.mutations, T0).results);
  }
  return { calls, failures };
}

describe('TestSyncReplicaSetCreateFailures', () => {
  it('given replicas=100 and a quota of 10 pods, when reconciled until it stops, then 10 pods exist after at most 1+2+4+8 create calls', () => {
    const c = newCluster([newRc(100)]);
    c.createLimit = 10;
    const { calls, failures } = createRounds(c);
    assert.deepEqual(calls, [100], 'one sync asks for all of them, as one slow-start run');
    assert.equal(c.createCalls, 1 + 2 + 4 + 8, 'the batch of 8 had 5 failures, and the run stopped there');
    assert.equal(c.objects.pods.size, 10);
    assert.equal(failures.length, 5);
    const report = sync(c, KEY, { failures });
    assert.deepEqual(podWrites(report), { creates: 0, deletes: 0, patches: 0 });
    assert.equal(report.error, `pods "${failures[0]!.name}" is forbidden: exceeded quota: pods`);
    const events = report.mutations.filter((m) => m.verb === 'RecordEvent').map((m) => m.event!);
    assert.equal(events.length, 5);
    assert.deepEqual(
      [events[0]!.type, events[0]!.reason, events[0]!.message],
      ['Warning', 'FailedCreate', `Error creating: ${failures[0]!.message}`],
    );
    const status = JSON.parse(report.mutations.find((m) => m.verb === 'UpdateStatus')!.body!).status;
    assert.deepEqual(status.conditions, [
      {
        type: REPLICA_FAILURE,
        status: 'True',
        lastTransitionTime: '2026-03-01T12:00:00Z',
        reason: 'FailedCreate',
        message: failures[0]!.message,
      },
    ]);
  });

  it('given the quota is lifted, when reconciled to the end, then 100 pods exist and the ReplicaFailure condition is gone', () => {
    const c = newCluster([newRc(100)]);
    c.createLimit = 10;
    const { failures } = createRounds(c);
    applyMutations(c, sync(c, KEY, { failures }).mutations, T0);
    assert.equal(c.objects.replicationcontrollers.get(KEY)!.status!.conditions![0]!.type, REPLICA_FAILURE);
    c.createLimit = undefined;
    convergeRc(c, KEY);
    assert.equal(c.objects.pods.size, 100);
    assert.equal(c.objects.replicationcontrollers.get(KEY)!.status!.conditions, undefined);
  });
});

describe('TestSlowStartBatch (one sync publishes the run; the writer applies it in batches and stops at a failure)', () => {
  const cases = [
    { name: 'callLimit = 0 (all fail)', limit: 0, calls: 1, created: 0 },
    { name: 'callLimit = count (all succeed)', limit: 10, calls: 10, created: 10 },
    { name: 'callLimit < count (some succeed)', limit: 5, calls: 7, created: 5 },
  ];
  for (const tc of cases) {
    it(`given ${tc.name}, when 10 pods are wanted, then ${tc.calls} create calls reach the apiserver and ${tc.created} pods exist`, () => {
      const c = newCluster([newRc(10)]);
      c.createLimit = tc.limit;
      assert.deepEqual(createRounds(c).calls, [10]);
      assert.equal(c.createCalls, tc.calls);
      assert.equal(c.objects.pods.size, tc.created);
    });
  }

  it("given 1000 missing pods, then one sync publishes burstReplicas (500) creates as one run: its first create's id, indexes 0-499", () => {
    const creates = sync(newCluster([newRc(1000)]), KEY).mutations.filter((m) => m.verb === 'Create');
    assert.equal(creates.length, 500);
    assert.deepEqual(
      creates.map((m) => m.slowStart),
      creates.map((_, index) => ({ run: creates[0]!.id, index, size: 500 })),
    );
  });
});

describe('manageReplicas errors: namespace terminating, FailedDelete, recovery', () => {
  const failure = (over: Partial<MutationResult>): MutationResult => ({
    mutationId: 'm',
    controller: 'replicationcontroller-controller',
    verb: 'Create',
    target: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: '', resource: 'pods', subresource: null },
    outcome: 'Failed',
    status: 403,
    reason: 'Forbidden',
    message: 'forbidden',
    name: 'foobar-x',
    resourceVersion: null,
    uid: null,
    attempts: 1,
    appliedAt: T0.toISOString(),
    reconcileKey: KEY,
    ...over,
  });

  it('given a create refused because the namespace is terminating, when reconciled, then it is not an error and no event is recorded', () => {
    const result = sync(newCluster([newRc(1)]), KEY, { failures: [failure({ reason: 'NamespaceTerminating' })] });
    assert.equal(result.error, undefined);
    assert.deepEqual(verbs(result), { Create: 1 });
  });

  it('given a create the writer refused (not in its allowlist), when reconciled, then it is a FailedCreate error (backoff, not a loop)', () => {
    const result = sync(newCluster([newRc(1)]), KEY, {
      failures: [failure({ outcome: 'Refused', status: 0, reason: 'NotAllowed', message: 'not allowed' })],
    });
    assert.deepEqual(podWrites(result), { creates: 0, deletes: 0, patches: 0 });
    assert.equal(result.error, 'not allowed');
  });

  it('given a failed delete, when reconciled, then FailedDelete is recorded, the condition says FailedDelete and nothing is deleted', () => {
    const rc = newRc(0, undefined, { status: { replicas: 1 } });
    const c = newCluster([rc], [newPod('pod0', rc)]);
    const target = {
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: 'default',
      name: 'pod0',
      resource: 'pods',
      subresource: null,
    };
    const result = sync(c, KEY, {
      failures: [failure({ verb: 'Delete', target, status: 500, message: 'etcd timeout' })],
    });
    assert.deepEqual(podWrites(result), { creates: 0, deletes: 0, patches: 0 });
    assert.deepEqual(
      result.mutations.filter((m) => m.verb === 'RecordEvent').map((m) => [m.event!.reason, m.event!.message]),
      [['FailedDelete', 'Error deleting: etcd timeout']],
    );
    assert.equal(result.error, 'unable to delete pods: etcd timeout');
    assert.equal(JSON.parse(result.mutations.at(-1)!.body!).status.conditions[0].reason, 'FailedDelete');
  });

  it('given a delete whose UID precondition failed (a namesake replaced the pod), when reconciled, then it is not an error', () => {
    const rc = newRc(0);
    const target = {
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: 'default',
      name: 'pod0',
      resource: 'pods',
      subresource: null,
    };
    assert.equal(
      sync(newCluster([rc]), KEY, { failures: [failure({ verb: 'Delete', target, outcome: 'Conflict', status: 409 })] })
        .error,
      undefined,
    );
  });

  it('given an existing ReplicaFailure condition and a sync without error, when reconciled, then the condition is removed', () => {
    const cond = { type: REPLICA_FAILURE, status: 'True' as const, reason: 'FailedCreate', message: 'quota' };
    const rc = newRc(1, undefined, {
      status: { replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, conditions: [cond] },
    });
    const result = sync(newCluster([rc], [newPod('pod0', rc)]), KEY);
    assert.deepEqual(verbs(result), { UpdateStatus: 1 });
    assert.equal(JSON.parse(result.mutations[0]!.body!).status.conditions, undefined);
  });
});
