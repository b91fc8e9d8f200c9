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
