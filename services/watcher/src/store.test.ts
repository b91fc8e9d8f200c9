import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PublishedState } from './store.ts';

const pod = (name: string, rv: string) => ({ metadata: { name, namespace: 'ns', resourceVersion: rv } });

describe('PublishedState.relist', () => {
  it('given a published object with labels, a spec and a status, then a synthetic delete carries only its identity: namespace, name, uid, resourceVersion', () => {
    const state = new PublishedState();
    const metadata = {
      ...pod('a', '1').metadata,
      uid: 'u-1',
      labels: { app: 'web' },
      ownerReferences: [{ name: 'rc' }],
    };
    state.apply('Applied', 'ns/a', { metadata, spec: { containers: [] }, status: { phase: 'Running' } });
    assert.deepEqual(state.relist([]), [
      { type: 'Deleted', object: { metadata: { name: 'a', namespace: 'ns', uid: 'u-1', resourceVersion: '1' } } },
    ]);
  });

  it('given a published cluster-scoped object without a uid, then its synthetic delete names it without a namespace or uid', () => {
    const state = new PublishedState();
    state.apply('Applied', 'node-1', { metadata: { name: 'node-1', resourceVersion: '7' } });
    assert.deepEqual(state.relist([]), [
      { type: 'Deleted', object: { metadata: { name: 'node-1', resourceVersion: '7' } } },
    ]);
  });

  it('given published a@1, b@1, c@1 and a list of a@1, b@2, d@3, then it emits b and d as Applied and c as a synthetic Deleted with its last state', () => {
    const state = new PublishedState();
    for (const name of ['a', 'b', 'c']) state.apply('Applied', `ns/${name}`, pod(name, '1'));
    const items = state.relist([pod('a', '1'), pod('b', '2'), pod('d', '3')]);
    assert.deepEqual(items, [
      { type: 'Applied', object: pod('b', '2') },
      { type: 'Applied', object: pod('d', '3') },
      { type: 'Deleted', object: pod('c', '1') },
    ]);
  });

  it('given a deleted key, then it is no longer known', () => {
    const state = new PublishedState();
    state.apply('Applied', 'ns/a', pod('a', '1'));
    state.apply('Deleted', 'ns/a', {});
    assert.equal(state.size, 0);
    assert.deepEqual(state.relist([]), []);
  });

  it("given a state placed on partitions, then each partition's inventory counts its live keys: an update is no new key, a delete of an unknown key nothing", () => {
    const state = new PublishedState(2, (key) => (key.startsWith('a/') ? 0 : 1));
    const obj = (rv: string) => ({ metadata: { resourceVersion: rv } });
    state.apply('Applied', 'a/x', obj('1'));
    state.apply('Applied', 'a/x', obj('2'));
    state.apply('Applied', 'b/y', obj('3'));
    state.apply('Deleted', 'b/y', obj('3'));
    state.apply('Deleted', 'b/unknown', obj('4'));
    const [a, b] = state.inventories();
    assert.match(a!, /^1:[0-9a-f]{8}$/);
    assert.equal(b, '0:00000000');
  });
});
