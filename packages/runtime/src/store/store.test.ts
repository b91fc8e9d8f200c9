import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { byNamespace, NAMESPACE_INDEX, type ObjectMetaLike } from './index-funcs.ts';
import { Store } from './store.ts';

type Pod = ObjectMetaLike & { readonly name: string };

function pod(namespace: string, name: string, ownerUID?: string): Pod {
  const ownerReferences = ownerUID ? [{ uid: ownerUID, controller: true }] : [];
  return { name, metadata: { namespace, ownerReferences } };
}

function givenStore(...pods: Pod[]): Store<Pod> {
  const store = new Store<Pod>({ [NAMESPACE_INDEX]: byNamespace, [CONTROLLER_UID_INDEX]: controllerUID });
  for (const p of pods) store.apply({ type: 'Applied', key: `${p.metadata?.namespace}/${p.name}`, object: p });
  return store;
}

/** CONTROLLER_UID_INDEX: an index whose functions give no key for some objects (orphans are in no entry). */
const CONTROLLER_UID_INDEX = 'controllerUID';
const controllerUID = (p: Pod): readonly string[] =>
  (p.metadata?.ownerReferences ?? []).filter((r) => r.controller === true).map((r) => r.uid ?? '');

const names = (pods: readonly Pod[]): string[] => pods.map((p) => p.name).sort();

describe('Store', () => {
  it('given applied objects, then the lister gets, lists and finds them by index', () => {
    const lister = givenStore(pod('a', 'p1', 'rc1'), pod('a', 'p2', 'rc2'), pod('b', 'p3', 'rc1')).lister();
    assert.equal(lister.get('a/p1')?.name, 'p1');
    assert.equal(lister.get('a/nope'), undefined);
    assert.deepEqual(names(lister.list()), ['p1', 'p2', 'p3']);
    assert.deepEqual(names(lister.byIndex(NAMESPACE_INDEX, 'a')), ['p1', 'p2']);
    assert.deepEqual(names(lister.byIndex(CONTROLLER_UID_INDEX, 'rc1')), ['p1', 'p3']);
  });

  it('given an object, when it is applied again with another owner, then it moves between index entries', () => {
    const store = givenStore(pod('a', 'p1', 'rc1'));
    const old = store.apply({ type: 'Applied', key: 'a/p1', object: pod('a', 'p1', 'rc2') });
    assert.deepEqual(old, pod('a', 'p1', 'rc1'));
    assert.deepEqual(store.lister().byIndex(CONTROLLER_UID_INDEX, 'rc1'), []);
    assert.deepEqual(names(store.lister().byIndex(CONTROLLER_UID_INDEX, 'rc2')), ['p1']);
    assert.deepEqual(store.indexValues(CONTROLLER_UID_INDEX), ['rc2']);
    assert.equal(store.size, 1);
  });

  it('given an object, when a Deleted event without the object (a tombstone) comes, then it leaves the store and every index', () => {
    const store = givenStore(pod('a', 'p1', 'rc1'), pod('a', 'p2', 'rc1'));
    const old = store.apply({ type: 'Deleted', key: 'a/p1' });
    assert.equal(old?.name, 'p1');
    assert.equal(store.lister().get('a/p1'), undefined);
    assert.deepEqual(names(store.lister().byIndex(CONTROLLER_UID_INDEX, 'rc1')), ['p2']);
    assert.deepEqual(names(store.lister().byIndex(NAMESPACE_INDEX, 'a')), ['p2']);
    assert.equal(store.size, 1);
  });

  it('given an unknown key, when it is deleted, then nothing changes and no previous state is returned', () => {
    const store = givenStore(pod('a', 'p1'));
    assert.equal(store.apply({ type: 'Deleted', key: 'a/ghost', object: pod('a', 'ghost', 'rc1') }), undefined);
    assert.equal(store.size, 1);
    assert.deepEqual(store.lister().byIndex(CONTROLLER_UID_INDEX, 'rc1'), []);
  });

  it('given the last object of an index value goes, then the value is no longer listed', () => {
    const store = givenStore(pod('a', 'p1', 'rc1'));
    store.apply({ type: 'Deleted', key: 'a/p1' });
    assert.deepEqual(store.indexValues(CONTROLLER_UID_INDEX), []);
    assert.deepEqual(store.indexValues(NAMESPACE_INDEX), []);
  });

  it('given objects of two namespaces, when dropWhere matches one, then only those are forgotten, indices too', () => {
    const store = givenStore(pod('a', 'p1', 'rc1'), pod('a', 'p2', 'rc1'), pod('b', 'p3', 'rc1'));
    assert.equal(
      store.dropWhere((key) => key.startsWith('a/')),
      2,
    );
    assert.equal(store.size, 1);
    assert.deepEqual(names(store.lister().list()), ['p3']);
    assert.deepEqual(store.lister().byIndex(NAMESPACE_INDEX, 'a'), []);
    assert.deepEqual(names(store.lister().byIndex(CONTROLLER_UID_INDEX, 'rc1')), ['p3']);
  });

  it('given a lister taken earlier, then it sees later applies', () => {
    const store = givenStore();
    const lister = store.lister();
    store.apply({ type: 'Applied', key: 'a/p1', object: pod('a', 'p1') });
    assert.equal(lister.get('a/p1')?.name, 'p1');
  });

  it('given an index that was never declared, when it is queried, then it throws naming it', () => {
    assert.throws(
      () => givenStore(pod('a', 'p1')).lister().byIndex('labels', 'x'),
      /Index with name labels does not exist/,
    );
  });

  it('given an index function with several values, then the object is found under each', () => {
    const store = new Store<{ readonly tags: readonly string[] }>({ tag: (o) => o.tags });
    store.apply({ type: 'Applied', key: 'k', object: { tags: ['x', 'y'] } });
    assert.equal(store.lister().byIndex('tag', 'x').length, 1);
    assert.equal(store.lister().byIndex('tag', 'y').length, 1);
    store.apply({ type: 'Applied', key: 'k', object: { tags: ['y'] } });
    assert.deepEqual(store.indexValues('tag'), ['y']);
  });
});
