import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aMutation } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import { applyMutation } from './apply-mutation.ts';
import { apiWorld } from './api-world.fixture.ts';

const RS_PATH = '/apis/apps/v1/namespaces/team-a/replicasets/web-1';
const owned = (kind: string, name: string) => ({
  metadata: {
    name: 'web-1',
    namespace: 'team-a',
    uid: 'rs-uid',
    ownerReferences: [{ apiVersion: 'apps/v1', kind, name, uid: 'd-uid', controller: true }],
  },
});
const deleteRS = (reconcileKey: string) =>
  aMutation({
    controller: 'deployment-controller',
    verb: 'Delete',
    target: {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      namespace: 'team-a',
      name: 'web-1',
      resource: 'replicasets',
      subresource: null,
    },
    preconditions: { uid: 'rs-uid', resourceVersion: null },
    reconcileKey,
  });

describe('live check controlledByKey (a Deployment deletes only its own ReplicaSets)', () => {
  it("given a ReplicaSet the API says the key's Deployment controls, then it is deleted", async () => {
    const { deps, sent } = apiWorld({ [RS_PATH]: owned('Deployment', 'web') });
    assert.equal((await applyMutation(deleteRS('team-a/web'), deps)).outcome, 'Applied');
    assert.deepEqual(
      sent.map((r) => r.method),
      ['GET', 'DELETE'],
    );
  });

  it("given another Deployment's ReplicaSet, one of another kind's, or a key of another namespace (forged or stale), then it is Refused and nothing is deleted", async () => {
    for (const [object, key] of [
      [owned('Deployment', 'other'), 'team-a/web'],
      [owned('StatefulSet', 'web'), 'team-a/web'],
      [owned('Deployment', 'web'), 'team-b/web'],
      [{ metadata: { name: 'web-1', namespace: 'team-a', uid: 'rs-uid' } }, 'team-a/web'],
    ] as const) {
      const { deps, sent } = apiWorld({ [RS_PATH]: object });
      const result = await applyMutation(deleteRS(key), deps);
      assert.deepEqual([result.outcome, result.reason], ['Refused', 'LiveCheckFailed']);
      assert.deepEqual(
        sent.map((r) => r.method),
        ['GET'],
      );
    }
  });

  it('given a ReplicaSet already gone, then AlreadyDone without a DELETE', async () => {
    const { deps, sent } = apiWorld({});
    assert.equal((await applyMutation(deleteRS('team-a/web'), deps)).outcome, 'AlreadyDone');
    assert.equal(sent.length, 1);
  });
});

const NS_PATH = '/api/v1/namespaces/doomed';
const nsTarget = { apiVersion: 'v1', kind: 'Namespace', namespace: null, name: 'doomed', resource: 'namespaces' };
const contentPass = aMutation({
  controller: 'namespace-controller',
  verb: 'DeleteNamespaceContent',
  target: { ...nsTarget, subresource: null },
  preconditions: { uid: 'ns-uid', resourceVersion: null },
  reconcileKey: 'doomed',
});
const finalize = aMutation({
  controller: 'namespace-controller',
  verb: 'FinalizeNamespace',
  target: { ...nsTarget, subresource: 'finalize' },
  preconditions: { uid: 'ns-uid', resourceVersion: null },
  reconcileKey: 'doomed',
});
const ns = (
  deletionTimestamp?: string,
  uid = 'ns-uid',
  finalizers = ['kubernetes', 'b.example.com/x', 'a.example.com/y'],
) => ({
  metadata: {
    name: 'doomed',
    uid,
    resourceVersion: '9',
    labels: { live: 'yes' },
    ...(deletionTimestamp ? { deletionTimestamp } : {}),
  },
  spec: { finalizers },
});

describe('live check namespaceTerminating (content deleted, finalizer removed, only in a namespace being deleted)', () => {
  it('given a live namespace (a forged or replayed command), then both are Refused after one read', async () => {
    for (const m of [contentPass, finalize]) {
      const { deps, sent } = apiWorld({ [NS_PATH]: ns() });
      const result = await applyMutation(m, deps);
      assert.deepEqual([result.outcome, result.reason], ['Refused', 'LiveCheckFailed']);
      assert.deepEqual(
        sent.map((r) => `${r.method} ${r.path}`),
        [`GET ${NS_PATH}`],
      );
    }
  });

  it('given a namespace gone, or another one of that name, then AlreadyDone or Conflict without a write', async () => {
    const gone = apiWorld({});
    assert.equal((await applyMutation(contentPass, gone.deps)).outcome, 'AlreadyDone');
    const other = apiWorld({ [NS_PATH]: ns('2026-11-29T07:00:00Z', 'new-uid') });
    assert.equal((await applyMutation(finalize, other.deps)).outcome, 'Conflict');
    assert.equal(gone.sent.length + other.sent.length, 2);
  });

  it('given a terminating namespace, then the pass runs and its result carries the report, and the finalize is PUT', async () => {
    const pass = apiWorld({ [NS_PATH]: ns('2026-11-29T07:00:00Z') });
    const result = await applyMutation(contentPass, pass.deps);
    assert.equal(result.outcome, 'Applied');
    assert.ok(result.contentReport, 'the report rides on the result');
    assert.ok(
      pass.sent.some((r) => r.path === '/apis'),
      'the pass discovered the API',
    );
    const put = apiWorld({ [NS_PATH]: ns('2026-11-29T07:00:00Z') });
    assert.equal((await applyMutation(finalize, put.deps)).outcome, 'Applied');
    assert.deepEqual(
      put.sent.map((r) => `${r.method} ${r.path}`),
      [`GET ${NS_PATH}`, `PUT ${NS_PATH}/finalize`],
    );
    const body = JSON.parse(put.sent[1]!.body!) as ReturnType<typeof ns>;
    assert.deepEqual(
      body.spec.finalizers,
      ['a.example.com/y', 'b.example.com/x'],
      'the live finalizers but kubernetes',
    );
    assert.deepEqual(
      [body.metadata.resourceVersion, body.metadata.labels],
      ['9', { live: 'yes' }],
      'the live namespace',
    );
  });

  it('given a terminating namespace without the kubernetes finalizer, then the finalize is AlreadyDone without a PUT', async () => {
    const { deps, sent } = apiWorld({ [NS_PATH]: ns('2026-11-29T07:00:00Z', 'ns-uid', ['other']) });
    assert.equal((await applyMutation(finalize, deps)).outcome, 'AlreadyDone');
    assert.equal(sent.length, 1);
  });
});

describe("live check keySecretGone (a deleted token Secret taken out of its account's secrets)", () => {
  const SA_PATH = '/api/v1/namespaces/team-a/serviceaccounts/builder';
  const SECRET_PATH = '/api/v1/namespaces/team-a/secrets/builder-token';
  const unlist = (reconcileKey: string) =>
    aMutation({
      controller: 'serviceaccount-token-controller',
      verb: 'Patch',
      target: {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        namespace: 'team-a',
        name: 'builder',
        resource: 'serviceaccounts',
        subresource: null,
      },
      preconditions: { uid: 'sa-uid', resourceVersion: null },
      patchType: 'json',
      patch: JSON.stringify([
        { op: 'test', path: '/secrets/0/name', value: 'builder-token' },
        { op: 'remove', path: '/secrets/0' },
      ]),
      reconcileKey,
    });

  it('given the Secret gone, as the API says, then the reference is taken out', async () => {
    const { deps, sent } = apiWorld({});
    assert.equal((await applyMutation(unlist('team-a/builder-token'), deps)).outcome, 'Applied');
    assert.deepEqual(
      sent.map((r) => `${r.method} ${r.path}`),
      [`GET ${SECRET_PATH}`, `PATCH ${SA_PATH}`],
    );
  });

  it('given the Secret there (a forged delete on its topic), or a key of another namespace, then Refused, the account untouched', async () => {
    for (const [objects, key] of [
      [
        { [SECRET_PATH]: { metadata: { name: 'builder-token', namespace: 'team-a', uid: 's-uid' } } },
        'team-a/builder-token',
      ],
      [{}, 'team-b/builder-token'],
      [{}, 'builder-token'],
    ] as const) {
      const { deps, sent } = apiWorld(objects);
      const result = await applyMutation(unlist(key), deps);
      assert.deepEqual([result.outcome, result.reason], ['Refused', 'LiveCheckFailed'], key);
      assert.ok(
        sent.every((r) => r.method === 'GET'),
        `${key}: ${sent.map((r) => r.method).join(', ')}`,
      );
    }
  });
});
