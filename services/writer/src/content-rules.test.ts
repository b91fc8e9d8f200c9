import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aCreate, aMutation, aRecordEvent } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import type { Mutation } from '@kcm-bus/runtime/mutation/mutation.ts';
import { contentRefusal } from './content-rules.ts';

const rcRef = { apiVersion: 'v1', kind: 'ReplicationController', name: 'web', uid: 'rc-uid', controller: true, blockOwnerDeletion: true };
const createWith = (metadata: Record<string, unknown>): Mutation => aCreate({ body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata, spec: { containers: [] } }) });
const patch = (ops: unknown, patchType: Mutation['patchType'] = 'json'): Mutation => aMutation({ verb: 'Patch', patchType, patch: JSON.stringify(ops), preconditions: { uid: 'pod-uid', resourceVersion: null } });

describe('contentRefusal: what a controller may write, beyond verb and resource', () => {
  it('given the RC controller creating a pod of its namespace controlled by one RC (GetPodFromTemplate), then it may', () => {
    assert.equal(contentRefusal(aCreate()), undefined);
    assert.equal(contentRefusal(createWith({ generateName: 'web-', ownerReferences: [rcRef] })), undefined, 'the namespace may be left to the target');
  });

  it('given the RC controller creating a pod with no controller, another kind of controller or two, then it is refused naming why', () => {
    for (const ownerReferences of [undefined, [], [{ ...rcRef, controller: false }], [{ ...rcRef, kind: 'ReplicaSet', apiVersion: 'apps/v1' }], [rcRef, { ...rcRef, uid: 'other' }]]) {
      assert.match(contentRefusal(createWith({ generateName: 'web-', ownerReferences })) ?? '', /replicationcontroller-controller may not Create a pod whose controller is not one ReplicationController/);
    }
  });

  it('given the RC controller creating a pod into another namespace than the target\'s, then it is refused', () => {
    assert.match(contentRefusal(createWith({ generateName: 'web-', namespace: 'kube-system', ownerReferences: [rcRef] })) ?? '', /a pod of namespace "kube-system" in default/);
  });

  it('given the RC controller adopting or releasing (json patches of ownerReferences), then it may', () => {
    assert.equal(contentRefusal(patch([{ op: 'test', path: '/metadata/ownerReferences', value: null }, { op: 'add', path: '/metadata/ownerReferences', value: [rcRef] }])), undefined);
    assert.equal(contentRefusal(patch([{ op: 'test', path: '/metadata/ownerReferences/0/uid', value: 'u' }, { op: 'replace', path: '/metadata/ownerReferences/0', value: rcRef }])), undefined);
    assert.equal(contentRefusal(patch([{ op: 'test', path: '/metadata/ownerReferences/1/uid', value: 'rc-uid' }, { op: 'remove', path: '/metadata/ownerReferences/1' }])), undefined);
  });

  it('given the RC controller patching anything else, another owner kind, or not as a json patch, then it is refused', () => {
    assert.match(contentRefusal(patch([{ op: 'replace', path: '/spec/containers/0/image', value: 'evil' }])) ?? '', /a patch of "\/spec\/containers\/0\/image", outside \/metadata\/ownerReferences/);
    assert.match(contentRefusal(patch([{ op: 'add', path: '/metadata/ownerReferences/-', value: { ...rcRef, kind: 'Node' } }])) ?? '', /an owner reference that is not a ReplicationController/);
    assert.match(contentRefusal(patch({ metadata: { labels: { a: 'b' } } }, 'merge')) ?? '', /a merge patch/);
    assert.match(contentRefusal(patch({ op: 'add' })) ?? '', /not a list of operations/);
  });

  it('given an event about a kind its controller does not act on, alone or attached to a write, then it is refused', () => {
    assert.equal(contentRefusal(aRecordEvent()), undefined);
    const aboutNode = { ...aRecordEvent().event!, involvedObject: { ...aRecordEvent().event!.involvedObject, kind: 'Node' } };
    assert.match(contentRefusal(aRecordEvent(aboutNode)) ?? '', /may not record an event about a Node/);
    assert.match(contentRefusal(aCreate({ event: aboutNode })) ?? '', /may not record an event about a Node/);
    assert.equal(contentRefusal(aRecordEvent(aboutNode, { controller: 'node-lifecycle-controller' })), undefined);
  });

  it('given a Delete, or a controller without rules for its verb, then nothing is checked beyond the allowlist', () => {
    assert.equal(contentRefusal(aMutation()), undefined);
    assert.equal(contentRefusal(aMutation({ controller: 'endpoints-controller', verb: 'Update', target: { apiVersion: 'v1', kind: 'Endpoints', namespace: 'default', name: 'web', resource: 'endpoints', subresource: null }, body: '{}' })), undefined);
  });
});
