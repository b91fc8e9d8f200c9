import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ReplicaSetStatus } from '@kcm-bus/k8s/apps-v1.ts';
import { verbs } from '@kcm-bus/k8s/reconcile.fixture.ts';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import { newCluster } from './cluster.fixture.ts';
import { onPodEvent } from './handlers.ts';
import { at, newPod, newRc, newRs } from './rc.fixture.ts';
import { REPLICA_SETS as RS } from './replica-set-kind.ts';
import { getIndirectlyRelatedPods, getPodControllers, POD_INDEXERS, SET_INDEXERS } from './set-lookup.ts';
import { convergeRc, sync } from './sync.fixture.ts';

const KEY = 'default/foobar';
const statusOf = (body: string | null | undefined): ReplicaSetStatus =>
  (JSON.parse(body ?? 'null') as { status: ReplicaSetStatus }).status;
const rsSync = (c: ReturnType<typeof newCluster>, o: Parameters<typeof sync>[2] = {}) =>
  sync(c, KEY, { ...o, kind: RS });
const terminating = at(-1);

describe('ReplicaSet: TestSyncReplicaSetDoesNothing, with DeploymentReplicaSetTerminatingReplicas (beta, on in v1.37.2)', () => {
  it('given 2 ready pods for 2 replicas and no terminatingReplicas yet, then the one write is the status "terminatingReplicas nil->0", then nothing', () => {
    const rs = newRs(2, undefined, {
      status: { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2 },
    });
    const c = newCluster([rs], [newPod('a', rs), newPod('b', rs)]);
    const first = rsSync(c);
    assert.deepEqual(verbs(first), { UpdateStatus: 1 });
    assert.deepEqual(statusOf(first.mutations[0]?.body).terminatingReplicas, 0);
    assert.equal(first.mutations[0]?.target.resource, 'replicasets');
    assert.equal(first.mutations[0]?.controller, 'replicaset-controller');
    assert.equal(convergeRc(c, KEY, { kind: RS }), 1, 'the status write, then convergence');
  });
});

describe('ReplicaSet: TestCalculateStatus (replica_set_utils_test.go), terminating pods', () => {
  it('given "1 fully labelled pods and 2 terminating with DeploymentReplicaSetTerminatingReplicas", then terminatingReplicas is 2 and they count nowhere else', () => {
    const rs = newRs(1);
    const pods = [
      newPod('pod1', rs),
      newPod('pod2', rs, { deleting: terminating }),
      newPod('pod3', rs, { deleting: terminating }),
    ];
    const status = statusOf(rsSync(newCluster([rs], pods)).mutations.find((m) => m.verb === 'UpdateStatus')?.body);
    assert.deepEqual(
      [status.replicas, status.fullyLabeledReplicas, status.readyReplicas, status.terminatingReplicas],
      [1, 1, 1, 2],
    );
  });

  it('given the same pods under a ReplicationController ("… (ReplicationController)"), then no terminatingReplicas: the RC API has none', () => {
    const rc = newRc(1);
    const pods = [
      newPod('pod1', rc),
      newPod('pod2', rc, { deleting: terminating }),
      newPod('pod3', rc, { deleting: terminating }),
    ];
    const status = statusOf(sync(newCluster([rc], pods), KEY).mutations.find((m) => m.verb === 'UpdateStatus')?.body);
    assert.equal(status.terminatingReplicas, undefined);
  });

  it('given terminating pods that are terminal, orphaned or no longer selected, then they are not counted (FilterTerminatingPods, FilterClaimedPods)', () => {
    const rs = newRs(1);
    const pods = [
      newPod('pod1', rs),
      newPod('done', rs, { deleting: terminating, phase: 'Succeeded' }),
      newPod('orphan', rs, { deleting: terminating, owned: false }),
      newPod('relabelled', rs, { deleting: terminating, labels: { foo: 'x' } }),
    ];
    assert.equal(
      statusOf(rsSync(newCluster([rs], pods)).mutations.find((m) => m.verb === 'UpdateStatus')?.body)
        .terminatingReplicas,
      0,
    );
  });
});

describe('ReplicaSet: a metav1.LabelSelector with matchExpressions', () => {
  const selector = {
    matchLabels: { foo: 'bar' },
    matchExpressions: [
      { key: 'tier', operator: 'In', values: ['web', 'api'] },
      { key: 'canary', operator: 'DoesNotExist' },
    ],
  };
  const rs = newRs(2, selector, { templateLabels: { foo: 'bar', tier: 'web' } });

  it('given orphans, then only those every requirement selects are adopted (In, DoesNotExist, and matchLabels ANDed)', () => {
    const pods = [
      newPod('web', rs, { owned: false, labels: { foo: 'bar', tier: 'web' } }),
      newPod('api', rs, { owned: false, labels: { foo: 'bar', tier: 'api' } }),
      newPod('db', rs, { owned: false, labels: { foo: 'bar', tier: 'db' } }),
      newPod('canary', rs, { owned: false, labels: { foo: 'bar', tier: 'web', canary: 'y' } }),
      newPod('untiered', rs, { owned: false, labels: { foo: 'bar' } }),
    ];
    const adopted = rsSync(newCluster([rs], pods))
      .mutations.filter((m) => m.verb === 'Patch')
      .map((m) => m.target.name);
    assert.deepEqual(adopted.sort(), ['api', 'web']);
  });

  it("given TestPodControllerLookup with expressions, then NotIn and Exists select as upstream's labels.Selector does", () => {
    const notIn = newRs(
      1,
      {
        matchExpressions: [
          { key: 'tier', operator: 'NotIn', values: ['db'] },
          { key: 'app', operator: 'Exists' },
        ],
      },
      { metadata: { name: 'notin', uid: 'u-notin' } },
    );
    const sets = listerOf([notIn], SET_INDEXERS);
    const names = (labels: Record<string, string>) =>
      getPodControllers(RS, newPod('p', notIn, { owned: false, labels }), sets).map((s) => s.metadata.name);
    assert.deepEqual(
      [names({ app: 'a' }), names({ app: 'a', tier: 'web' }), names({ app: 'a', tier: 'db' }), names({ tier: 'web' })],
      [['notin'], ['notin'], [], []],
    );
  });
});

describe('ReplicaSet: an invalid selector (LabelSelectorAsSelector fails: HandleError, return nil)', () => {
  it('given an unknown operator or In without values, then the sync writes nothing, warns, does not err, and the lookups select nothing', () => {
    for (const expr of [
      { key: 'tier', operator: 'Near', values: ['web'] },
      { key: 'tier', operator: 'In', values: [] },
      { key: 'Bad Key', operator: 'Exists' },
    ]) {
      const rs = newRs(3, { matchLabels: { foo: 'bar' }, matchExpressions: [expr] });
      const result = rsSync(newCluster([rs], [newPod('orphan', rs, { owned: false })]));
      assert.deepEqual(result.mutations, [], expr.operator);
      assert.equal(result.error, undefined, 'no requeue');
      assert.match(result.warning ?? '', /error converting pod selector to selector for ReplicaSet default\/foobar/);
      assert.deepEqual(getPodControllers(RS, newPod('p', rs, { owned: false }), listerOf([rs], SET_INDEXERS)), []);
    }
  });
});

describe('ReplicaSet: TestGetReplicaSetsWithSameController and TestRelatedPodsLookup (the controllerUID index)', () => {
  const rs = (name: string, foo: string, ownerUid: string) =>
    newRs(
      1,
      { matchLabels: { foo } },
      {
        metadata: {
          name,
          uid: `uid-${name}`,
          ownerReferences: [
            { apiVersion: 'apps/v1', kind: 'Deployment', name: 'dep', uid: ownerUid, controller: true },
          ],
        },
      },
    );
  const [rs1, rs2, rs3] = [rs('rs1', 'bar', '123'), rs('rs2', 'baz', '123'), rs('rs3', 'quux', '456')];
  const sets = listerOf([rs1, rs2, rs3], SET_INDEXERS);
  const pods = listerOf([newPod('p1', rs1), newPod('p2', rs2), newPod('p3', rs3)], POD_INDEXERS);

  it("given ReplicaSets of one Deployment and one of another, then the related pods are those of the same controller's ReplicaSets only", () => {
    assert.deepEqual(
      getIndirectlyRelatedPods(RS, rs1, sets, pods)
        .map((p) => p.metadata.name)
        .sort(),
      ['p1', 'p2'],
    );
    assert.deepEqual(
      getIndirectlyRelatedPods(RS, rs3, sets, pods).map((p) => p.metadata.name),
      ['p3'],
    );
  });
});

describe('ReplicaSet: what it writes names ReplicaSets', () => {
  it('given a scale up, then pods are created controlled by the ReplicaSet (apps/v1) and SuccessfulCreate comes from replicaset-controller', () => {
    const rs = newRs(1);
    const create = rsSync(newCluster([rs])).mutations.find((m) => m.verb === 'Create');
    const refs = (JSON.parse(create?.body ?? '{}') as { metadata: { ownerReferences: unknown } }).metadata
      .ownerReferences;
    assert.deepEqual(refs, [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'foobar',
        uid: 'rs-uid-foobar',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    assert.deepEqual(
      [create?.event?.involvedObject.kind, create?.event?.involvedObject.apiVersion, create?.event?.source.component],
      ['ReplicaSet', 'apps/v1', 'replicaset-controller'],
    );
  });

  it('given a pod an RC controls and the RS also selects (a pod claimed by both), then the RS leaves it alone and its pod events name only the RC', () => {
    const rs = newRs(1);
    const rc = newRc(1, undefined, { metadata: { name: 'web-rc', uid: 'rc-uid-web' } });
    const theirs = newPod('theirs', rc);
    assert.deepEqual(
      rsSync(newCluster([rs, rc], [theirs])).mutations.filter((m) => m.target.name === 'theirs'),
      [],
    );
    assert.deepEqual(onPodEvent(RS, 'Applied', theirs, undefined, listerOf([rs], SET_INDEXERS)), { enqueue: [] });
  });
});
