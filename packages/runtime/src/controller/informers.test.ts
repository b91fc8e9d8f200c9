import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HandlerOutput, InputEvent } from './controller-types.ts';
import { global, partitioned, type ObjectEvent } from './declaration.ts';
import { Informers } from './informers.ts';

type Thing = {
  readonly metadata: { readonly name: string; readonly namespace?: string };
  readonly spec?: { readonly size?: number };
};
type Inputs = { readonly things: Thing; readonly nodes: Thing };

const thing = (namespace: string, name: string, size = 1): Thing => ({ metadata: { name, namespace }, spec: { size } });
const record = (type: 'Applied' | 'Deleted', key: string, object: unknown, live = true): InputEvent => ({
  cause: { topic: 't', partition: 0, offset: 0 },
  type,
  key,
  object,
  resourceVersion: '1',
  live,
});

function informers(): { informers: Informers<Inputs>; seen: ObjectEvent<Thing>[] } {
  const seen: ObjectEvent<Thing>[] = [];
  const informers = new Informers<Inputs>({
    things: partitioned<Thing>('kcm.watch.things', { indexers: { namespace: (t) => [t.metadata.namespace ?? ''] } }),
    nodes: global<Thing>('kcm.watch.nodes', { project: (o) => ({ metadata: (o as Thing).metadata }) }),
  });
  return { informers, seen };
}

const handlers = (
  seen: ObjectEvent<Thing>[],
): { things: (e: ObjectEvent<Thing>) => HandlerOutput; nodes: (e: ObjectEvent<Thing>) => HandlerOutput } => ({
  things: (e) => (seen.push(e), { enqueue: [e.key] }),
  nodes: (e) => (seen.push(e), { enqueue: [] }),
});

describe('Informers: the runtime applies records to the declared stores and hands each change to its handler', () => {
  it('given objects in a global and a partitioned input, then globalAsAdds hands the global ones to their handler as adds, and only those', () => {
    const { informers: i, seen } = informers();
    const nodeKeys = {
      things: () => ({ enqueue: ['no'] }),
      nodes: (e: ObjectEvent<Thing>) => (seen.push(e), { enqueue: [e.key] }),
    };
    i.apply(nodeKeys, 'kcm.watch.things', record('Applied', 'ns/a', thing('ns', 'a')));
    i.apply(nodeKeys, 'kcm.watch.nodes', record('Applied', 'n1', thing('', 'n1')));
    i.apply(nodeKeys, 'kcm.watch.nodes', record('Applied', 'n2', thing('', 'n2')));
    i.apply(nodeKeys, 'kcm.watch.nodes', record('Applied', 'n2', thing('', 'n2', 2)));
    seen.length = 0;
    const out = i.globalAsAdds(nodeKeys);
    assert.deepEqual(out.enqueue, ['n1', 'n2']);
    assert.deepEqual(
      seen.map((e) => [e.type, e.key, e.old, e.live]),
      [
        ['Applied', 'n1', undefined, false],
        ['Applied', 'n2', undefined, false],
      ],
    );
  });

  it('given a record read by the watcher at a time, then the handler gets that time with the object', () => {
    const { informers: i, seen } = informers();
    i.apply(handlers(seen), 'kcm.watch.things', {
      ...record('Applied', 'ns/a', thing('ns', 'a')),
      observedAt: new Date('2026-01-01T00:00:07Z'),
    });
    assert.equal(seen[0]?.observedAt?.toISOString(), '2026-01-01T00:00:07.000Z');
  });

  it('given an add then an update, then the handler gets the new object and the old one, and the lister serves it by index', () => {
    const { informers: i, seen } = informers();
    i.apply(handlers(seen), 'kcm.watch.things', record('Applied', 'ns/a', thing('ns', 'a', 1)));
    const out = i.apply(handlers(seen), 'kcm.watch.things', record('Applied', 'ns/a', thing('ns', 'a', 2)));
    assert.deepEqual(out.enqueue, ['ns/a']);
    assert.deepEqual(
      seen.map((e) => [e.type, e.old?.spec?.size, e.object.spec?.size]),
      [
        ['Applied', undefined, 1],
        ['Applied', 1, 2],
      ],
    );
    assert.deepEqual(
      i
        .listers()
        .things.byIndex('namespace', 'ns')
        .map((t) => t.metadata.name),
      ['a'],
    );
  });

  it('given a delete of a known key, then the handler gets the last known state; of an unknown key, then no handler runs', () => {
    const { informers: i, seen } = informers();
    i.apply(handlers(seen), 'kcm.watch.things', record('Applied', 'ns/a', thing('ns', 'a')));
    i.apply(handlers(seen), 'kcm.watch.things', record('Deleted', 'ns/a', null));
    const out = i.apply(handlers(seen), 'kcm.watch.things', record('Deleted', 'ns/b', null));
    assert.deepEqual(
      seen.map((e) => [e.type, e.object.metadata.name]),
      [
        ['Applied', 'a'],
        ['Deleted', 'a'],
      ],
    );
    assert.deepEqual(out.enqueue, []);
    assert.equal(i.listers().things.get('ns/a'), undefined);
  });

  it('given a write that found an object gone (404), then a store holding it under that uid drops it and its handler sees the delete; a recreated namesake stays', () => {
    const { informers: i, seen } = informers();
    const withUid = (uid: string): Thing => ({ metadata: { name: 'a', namespace: 'ns', uid } }) as Thing;
    i.apply(handlers(seen), 'kcm.watch.things', record('Applied', 'ns/a', withUid('u2')));
    assert.equal(i.evict(handlers(seen), { resource: 'things', key: 'ns/a', uid: 'u1' }), undefined, 'another uid');
    assert.equal(i.evict(handlers(seen), { resource: 'nodes', key: 'ns/a', uid: 'u2' }), undefined, 'another kind');
    assert.deepEqual(i.evict(handlers(seen), { resource: 'things', key: 'ns/a', uid: 'u2' })?.enqueue, ['ns/a']);
    assert.equal(i.listers().things.get('ns/a'), undefined);
    assert.deepEqual(
      seen.map((e) => [e.type, e.key]),
      [
        ['Applied', 'ns/a'],
        ['Deleted', 'ns/a'],
      ],
    );
  });

  it("given a synthetic delete carrying only metadata, then the handler gets the store's last full state", () => {
    const { informers: i, seen } = informers();
    i.apply(handlers(seen), 'kcm.watch.things', record('Applied', 'ns/a', thing('ns', 'a', 3)));
    i.apply(
      handlers(seen),
      'kcm.watch.things',
      record('Deleted', 'ns/a', { metadata: { name: 'a', namespace: 'ns' } }),
    );
    assert.equal(seen.at(-1)?.object.spec?.size, 3);
  });

  it('given an input with a projection, then the store keeps only the projected fields', () => {
    const { informers: i, seen } = informers();
    i.apply(handlers(seen), 'kcm.watch.nodes', record('Applied', 'n1', thing('', 'n1', 9)));
    assert.deepEqual(i.listers().nodes.get('n1'), { metadata: { name: 'n1', namespace: '' } });
  });

  it("given keys to drop of one scope, then only that scope's inputs drop them; the other keeps everything", () => {
    const { informers: i, seen } = informers();
    i.apply(handlers(seen), 'kcm.watch.things', record('Applied', 'ns/a', thing('ns', 'a')));
    i.apply(handlers(seen), 'kcm.watch.nodes', record('Applied', 'n1', thing('', 'n1')));
    i.dropWhere('partitioned', () => true);
    assert.deepEqual(i.sizes(), { things: 0, nodes: 1 });
    i.apply(handlers(seen), 'kcm.watch.things', record('Applied', 'ns/a', thing('ns', 'a')));
    i.dropWhere('global', () => true);
    assert.deepEqual(i.sizes(), { things: 1, nodes: 0 });
    assert.deepEqual([i.topics('partitioned'), i.topics('global')], [['kcm.watch.things'], ['kcm.watch.nodes']]);
  });

  it('given a record of a topic no input declares, then nothing is stored or handled', () => {
    const { informers: i, seen } = informers();
    assert.deepEqual(i.apply(handlers(seen), 'kcm.watch.other', record('Applied', 'ns/x', thing('ns', 'x'))), {
      enqueue: [],
    });
    assert.equal(seen.length, 0);
  });
});
