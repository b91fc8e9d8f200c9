import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { applyMutations, failuresOf, objectNames } from '@kcm-bus/k8s/cluster.fixture.ts';
import { DEPRECATED_ROLLBACK_TO, REVISION, withAnnotations } from './annotations.ts';
import { at, FOO_CONTROLLER_REF, LABELS, newDeployment, newReplicaSet, T0 } from './deployment.fixture.ts';
import { computeHash, POD_TEMPLATE_HASH } from './hash.ts';
import { bodyOf, convergeDeployment, newCluster, sync } from './sync.fixture.ts';

const KEY = 'default/foo';
const verbsOf = (result: {
  readonly mutations: readonly { readonly verb: string; readonly target: { readonly name: string } }[];
}): [string, string][] => result.mutations.map((m) => [m.verb, m.target.name]);
const orphan = (r: ReplicaSet): ReplicaSet => {
  const { ownerReferences: _refs, ...metadata } = r.metadata;
  return { ...r, metadata };
};

describe('TestSyncDeploymentCreatesReplicaSet', () => {
  it('given a Deployment without ReplicaSets, then one Create of its new ReplicaSet and one UpdateStatus (upstream: two), then nothing more', () => {
    const d = newDeployment('foo', 1);
    const c = newCluster([d]);
    const result = sync(c, KEY);
    const hash = computeHash(d.spec.template, undefined);
    assert.deepEqual(verbsOf(result), [
      ['Create', `foo-${hash}`],
      ['UpdateStatus', 'foo'],
    ]);
    assert.equal(result.mutations[0]!.event?.message, `Scaled up replica set foo-${hash} from 0 to 1`);
    const status = bodyOf<Deployment>(result.mutations[1]);
    assert.equal(status.metadata.annotations?.[REVISION], '1');
    assert.deepEqual(
      { ...status.status, conditions: status.status?.conditions?.map((c) => [c.type, c.status]) },
      {
        observedGeneration: 1,
        replicas: 0,
        updatedReplicas: 0,
        readyReplicas: 0,
        availableReplicas: 0,
        unavailableReplicas: 1,
        terminatingReplicas: 0,
        conditions: [['Available', 'True']],
      },
    );
    assert.equal(convergeDeployment(c, KEY), 1);
    assert.deepEqual(objectNames(c, 'replicasets'), [`foo-${hash}`]);
  });
});

describe('TestSyncDeploymentDontDoAnythingDuringDeletion', () => {
  it('given a Deployment being deleted, then only its status is written', () => {
    const d = newDeployment('foo', 1);
    const c = newCluster([{ ...d, metadata: { ...d.metadata, deletionTimestamp: at(0) } }]);
    assert.deepEqual(verbsOf(sync(c, KEY)), [['UpdateStatus', 'foo']]);
  });
});

describe('TestSyncDeploymentDeletionRace', () => {
  const d = newDeployment('foo', 1);
  const rs = orphan(newReplicaSet(d, 'rs1', 1));
  it('given a matching orphan and a store not known fresh, then no write: the sync asks for a fresh read first (canAdopt)', () => {
    assert.deepEqual(sync(newCluster([d], [rs]), KEY, { fresh: false }), { mutations: [], freshRead: true });
  });
  it('given the fresh read shows the Deployment being deleted, then nothing is adopted, only the status is written', () => {
    const deleting = { ...d, metadata: { ...d.metadata, deletionTimestamp: at(0) } };
    assert.deepEqual(verbsOf(sync(newCluster([deleting], [rs]), KEY)), [['UpdateStatus', 'foo']]);
  });
});

describe('TestDontSyncDeploymentsWithEmptyPodSelector', () => {
  const d = { ...newDeployment('foo', 1), spec: { ...newDeployment('foo', 1).spec, selector: {} } };
  it('given an empty selector and its generation observed, then only the SelectingAll warning', () => {
    const result = sync(newCluster([{ ...d, status: { observedGeneration: 1 } }]), KEY);
    assert.deepEqual(
      result.mutations.map((m) => [m.verb, m.event?.type, m.event?.reason, m.event?.message]),
      [
        [
          'RecordEvent',
          'Warning',
          'SelectingAll',
          'This deployment is selecting all pods. A non-empty selector is required.',
        ],
      ],
    );
    assert.equal(result.error, undefined);
  });
  it('given an empty selector and a generation not yet observed, then the warning and the observedGeneration written', () => {
    const result = sync(newCluster([{ ...d, metadata: { ...d.metadata, generation: 2 } }]), KEY);
    assert.deepEqual(verbsOf(result), [
      ['RecordEvent', 'foo'],
      ['UpdateStatus', 'foo'],
    ]);
    assert.equal(bodyOf<Deployment>(result.mutations[1]).status?.observedGeneration, 2);
  });
  it('given an invalid selector, then an error (upstream requeues it, up to maxRetries)', () => {
    const bad = { ...d, spec: { ...d.spec, selector: { matchExpressions: [{ key: 'a', operator: 'Bogus' }] } } };
    assert.deepEqual(sync(newCluster([bad]), KEY), {
      mutations: [],
      error: 'deployment default/foo has invalid label selector: "Bogus" is not a valid label selector operator',
    });
  });
});

describe('TestReentrantRollback (the whole sync)', () => {
  it('given a Deployment asking to roll back to the last revision, then only its Update, no ReplicaSet write', () => {
    const d = withAnnotations(newDeployment('foo', 1), { [REVISION]: '2', [DEPRECATED_ROLLBACK_TO]: '0' });
    const rs1 = withAnnotations(
      {
        ...newReplicaSet(d, 'deploymentrs-old', 0),
        spec: {
          ...newReplicaSet(d, 'deploymentrs-old', 0).spec,
          template: { metadata: { labels: { ...LABELS, [POD_TEMPLATE_HASH]: 'hash' } } },
        },
      },
      { [REVISION]: '1' },
    );
    const rs2 = withAnnotations(newReplicaSet(d, 'deploymentrs-new', 1), { [REVISION]: '2' });
    assert.deepEqual(verbsOf(sync(newCluster([d], [rs1, rs2]), KEY)), [['Update', 'foo']]);
  });
});

describe('TestGetReplicaSetsForDeployment / TestGetReplicaSetsForDeploymentAdoptRelease', () => {
  it('given two Deployments with the same labels and a ReplicaSet each, then each syncs only its own', () => {
    const [d1, d2] = [newDeployment('foo', 1), newDeployment('bar', 1)];
    const c = newCluster([d1, d2], [newReplicaSet(d1, 'rs1', 1), newReplicaSet(d2, 'rs2', 1)]);
    assert.equal(
      sync(c, KEY).mutations.some((m) => m.target.name === 'rs2'),
      false,
    );
    assert.equal(
      sync(c, 'default/bar').mutations.some((m) => m.target.name === 'rs1'),
      false,
    );
  });

  it('given a matching orphan and an owned ReplicaSet that no longer matches, then a release and an adoption (json patches of ownerReferences), and nothing else until they applied', () => {
    const d = newDeployment('foo', 1);
    const rsRelease = {
      ...newReplicaSet(d, 'rsRelease', 1),
      metadata: { ...newReplicaSet(d, 'rsRelease', 1).metadata, labels: { foo: 'notbar' } },
    };
    const c = newCluster([d], [orphan(newReplicaSet(d, 'rsAdopt', 1)), rsRelease]);
    const result = sync(c, KEY);
    assert.deepEqual(
      result.mutations.map((m) => [m.verb, m.target.name, m.patchType]),
      [
        ['Patch', 'rsRelease', 'json'],
        ['Patch', 'rsAdopt', 'json'],
      ],
    );
    assert.deepEqual(JSON.parse(result.mutations[1]!.patch!), [
      { op: 'test', path: '/metadata/ownerReferences', value: null },
      {
        op: 'add',
        path: '/metadata/ownerReferences',
        value: [FOO_CONTROLLER_REF],
      },
    ]);
    applyMutations(c, result.mutations, T0);
    const next = sync(c, KEY);
    assert.equal(
      next.mutations.some((m) => m.verb === 'Create'),
      false,
      'the adopted ReplicaSet is the new one',
    );
    assert.equal(c.objects.replicasets.get('default/rsRelease')!.metadata.ownerReferences, undefined);
  });
});

describe('syncDeployment: failures of the previous sync, handled as upstream handled the call', () => {
  const d = newDeployment('foo', 2, { progressDeadlineSeconds: 600 });
  const createFailed = (c: ReturnType<typeof newCluster>): ReturnType<typeof failuresOf> => {
    c.writeError = { resource: 'replicasets', message: 'replicasets.apps "x" is forbidden: exceeded quota' };
    return failuresOf(applyMutations(c, sync(c, KEY).mutations, T0).results);
  };

  it('given a failed ReplicaSet create, then Progressing=False ReplicaSetCreateError, a warning, and the error: no other write', () => {
    const c = newCluster([d]);
    const failures = createFailed(c);
    const result = sync(c, KEY, { failures });
    const name = `foo-${computeHash(d.spec.template, undefined)}`;
    const message = `Failed to create new replica set "${name}": replicasets.apps "x" is forbidden: exceeded quota`;
    assert.deepEqual(
      result.mutations.map((m) => [m.verb, m.event?.reason ?? null, m.event?.message ?? null]),
      [
        ['UpdateStatus', null, null],
        ['RecordEvent', 'ReplicaSetCreateError', message],
      ],
    );
    const cond = bodyOf<Deployment>(result.mutations[0]).status?.conditions?.find((x) => x.type === 'Progressing');
    assert.deepEqual([cond?.status, cond?.reason, cond?.message], ['False', 'ReplicaSetCreateError', message]);
    assert.equal(result.error, 'replicasets.apps "x" is forbidden: exceeded quota');
  });

  it('given a create into a terminating namespace, then nothing at all and no error (handleErr forgets it)', () => {
    const failures = createFailed(newCluster([d])).map((f) => ({ ...f, reason: 'NamespaceTerminating' }));
    assert.deepEqual(sync(newCluster([d]), KEY, { failures }), { mutations: [] });
  });

  it('given a conflicting ReplicaSet update, then the error and no write; the sync after it writes again', () => {
    const old = {
      ...newReplicaSet(d, 'foo-old', 2),
      spec: { ...newReplicaSet(d, 'foo-old', 2).spec, template: { metadata: { labels: LABELS } } },
    };
    const c = newCluster([newDeployment('foo', 2, { recreate: true })], [old]);
    const first = sync(c, KEY);
    c.objects.replicasets.set('default/foo-old', { ...old, metadata: { ...old.metadata, resourceVersion: '99' } });
    const failures = failuresOf(applyMutations(c, first.mutations, T0).results);
    assert.deepEqual(
      failures.map((f) => [f.verb, f.outcome]),
      [['Update', 'Conflict']],
    );
    assert.deepEqual(sync(c, KEY, { failures }), { mutations: [], error: 'the object has been modified' });
    assert.deepEqual(verbsOf(sync(c, KEY)), [['Update', 'foo-old']]);
  });
});

describe('syncDeployment: a hash collision (an RS of the computed name that is not ours)', () => {
  it('given a foreign ReplicaSet named as the new one would be, then collisionCount rises and the next sync creates under another name', () => {
    const d = newDeployment('foo', 1);
    const name = `foo-${computeHash(d.spec.template, undefined)}`;
    const foreign = orphan({
      ...newReplicaSet(d, name, 1),
      metadata: { ...newReplicaSet(d, name, 1).metadata, labels: { other: 'x' } },
    });
    const c = newCluster([d], [foreign]);
    const first = sync(c, KEY);
    assert.deepEqual(
      [verbsOf(first), first.error],
      [[['UpdateStatus', 'foo']], `replicasets.apps "${name}" already exists`],
    );
    applyMutations(c, first.mutations, T0);
    const second = sync(c, KEY);
    assert.deepEqual(second.mutations[0]?.target.name, `foo-${computeHash(d.spec.template, 1)}`);
  });
});

describe('syncDeployment: strategies and paths', () => {
  it('given a strategy upstream does not know, then its error after syncing the revision', () => {
    const d = newDeployment('foo', 1);
    const odd = { ...d, spec: { ...d.spec, strategy: { type: 'Blue' } } };
    const result = sync(newCluster([odd], [newReplicaSet(d, 'foo-1', 1)]), KEY);
    assert.equal(result.error, 'unexpected deployment strategy type: Blue');
  });

  it('given a paused Deployment scaled from 3 to 5, then its one ReplicaSet is scaled, nothing created', () => {
    const d = newDeployment('foo', 5, { paused: true });
    const r = withAnnotations(newReplicaSet(d, 'foo-1', 3), { [REVISION]: '1' });
    assert.deepEqual(verbsOf(sync(newCluster([withAnnotations(d, { [REVISION]: '1' })], [r]), KEY)), [
      ['Update', 'foo-1'],
      ['UpdateStatus', 'foo'],
    ]);
  });

  it('given a paused Deployment of a new template scaled from 0 with revisionHistoryLimit 0, then its newest old ReplicaSet is scaled and, judged on its stale copy, deleted (as upstream)', () => {
    const d = newDeployment('foo', 3, { paused: true, revisionHistoryLimit: 0 });
    const old = withAnnotations(
      {
        ...newReplicaSet(d, 'foo-old', 0),
        spec: { ...newReplicaSet(d, 'foo-old', 0).spec, template: { metadata: { labels: LABELS } } },
        status: { replicas: 0 },
      },
      { [REVISION]: '1' },
    );
    assert.deepEqual(verbsOf(sync(newCluster([d], [old]), KEY)), [
      ['Update', 'foo-old'],
      ['Delete', 'foo-old'],
      ['UpdateStatus', 'foo'],
    ]);
  });

  it('given a Deployment unknown to the store, then nothing', () => {
    assert.deepEqual(sync(newCluster([]), KEY), { mutations: [] });
  });
});
