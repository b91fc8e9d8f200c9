import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aCreate, aMutation, podTarget } from './mutation.fixture.ts';
import { generatedName, mutationId } from './mutation-id.ts';
import { qualifiedResource, subresourceOf, targetKey } from './mutation.ts';

describe('targetKey', () => {
  it('given a namespaced core object, then the key is resource/namespace/name', () => {
    assert.equal(targetKey(aMutation()), 'pods/default/web-1');
  });

  it('given a status write and a delete of one pod, then both have the same key (one order per object)', () => {
    const status = aMutation({ verb: 'UpdateStatus', target: { ...podTarget, subresource: 'status' } });
    assert.equal(targetKey(status), targetKey(aMutation()));
  });

  it('given a cluster-scoped object in a named group, then the key is resource.group/name', () => {
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      namespace: null,
      name: 'n1',
      resource: 'leases',
      subresource: null,
    };
    assert.equal(targetKey(aMutation({ target: lease })), 'leases.coordination.k8s.io/n1');
  });

  it('given two generateName creates, then each has a key of its own, so they may be in flight together', () => {
    assert.equal(targetKey(aCreate({ id: 'a' })), 'pods/default/?a');
    assert.notEqual(targetKey(aCreate({ id: 'a' })), targetKey(aCreate({ id: 'b' })));
  });
});

describe('qualifiedResource and subresourceOf', () => {
  it('given an apps/v1 target, then the resource is qualified with its group', () => {
    assert.equal(
      qualifiedResource({ ...podTarget, apiVersion: 'apps/v1', resource: 'replicasets' }),
      'replicasets.apps',
    );
  });

  it('given an UpdateStatus without a subresource, then it writes status', () => {
    assert.equal(subresourceOf(aMutation({ verb: 'UpdateStatus' })), 'status');
    assert.equal(subresourceOf(aMutation()), null);
  });
});

describe('mutationId', () => {
  const input = {
    controller: 'replicationcontroller-controller',
    key: 'default/web',
    cause: [{ topic: 't', partition: 1, offset: 5 }],
    attempt: 0,
    seq: 0,
  };

  it('given the same origin twice (a replayed reconcile), then the id is the same', () => {
    assert.equal(mutationId(input), mutationId({ ...input, cause: [{ topic: 't', partition: 1, offset: 5 }] }));
    assert.match(mutationId(input), /^[0-9a-f]{32}$/);
  });

  it('given another key, cause offset, attempt or position, then the id differs', () => {
    const ids = new Set([
      mutationId(input),
      mutationId({ ...input, key: 'default/db' }),
      mutationId({ ...input, cause: [{ topic: 't', partition: 1, offset: 6 }] }),
      mutationId({ ...input, attempt: 1 }),
      mutationId({ ...input, attempt: 2 }),
      mutationId({ ...input, seq: 1 }),
    ]);
    assert.equal(ids.size, 6);
  });

  it('given a first attempt, then the id is the one records written before attempts counted carry', () => {
    assert.equal(mutationId(input), '35a2519bf8644c5f781a6b2c7403ff81');
  });
});

describe('generatedName', () => {
  it('given a generateName and an id, then the name is the prefix plus a 10-character suffix fixed by the id', () => {
    const name = generatedName('web-', 'm-1');
    assert.match(name, /^web-[bcdfghjklmnpqrstvwxz2456789]{10}$/);
    assert.equal(generatedName('web-', 'm-1'), name);
    assert.notEqual(generatedName('web-', 'm-2'), name);
  });

  it('given a prefix too long, then it is cut so the name fits 63 characters', () => {
    assert.equal(generatedName('x'.repeat(80), 'm-1').length, 63);
  });

  it('given 20000 ids, then no two names collide', () => {
    const names = new Set(Array.from({ length: 20000 }, (_, i) => generatedName('web-', `m-${i}`)));
    assert.equal(names.size, 20000);
  });
});
