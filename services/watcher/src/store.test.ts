import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PublishedState } from './store.ts';

const pod = (name: string, rv: string) => ({ metadata: { name, namespace: 'ns', resourceVersion: rv } });

describe('PublishedState.relist', () => {
  it('given a published object with a spec and a status, then it keeps only its metadata, which a synthetic delete carries', () => {
    const state = new PublishedState();
    state.apply('Applied', 'ns/a', { ...pod('a', '1'), spec: { containers: [] }, status: { phase: 'Running' } });
    assert.deepEqual(state.relist([]), [{ type: 'Deleted', object: pod('a', '1') }]);
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
});
