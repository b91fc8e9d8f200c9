import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConfigMap, Namespace, NamespacePhase } from '@kcm-bus/k8s/core-v1.ts';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import type { ObjectEvent } from '@kcm-bus/runtime/controller/index.ts';
import type { Mutation } from '@kcm-bus/runtime/mutation/index.ts';
import { failedWrite, syncInput as input } from '../namespace.fixture.ts';
import { rootCAPublisherSpec } from './root-ca-publisher.ts';
import { DESCRIPTION, DESCRIPTION_ANNOTATION } from './sync-root-ca.ts';

const CA = 'fake-root-ca';
const ns = (name: string, phase: NamespacePhase = 'Active'): Namespace => ({
  metadata: { name, uid: `${name}-uid` },
  status: { phase },
});
const cm = (name: string, data: Record<string, string>, annotations?: Record<string, string>): ConfigMap => ({
  metadata: {
    name,
    namespace: 'default',
    uid: `${name}-uid`,
    resourceVersion: '1',
    ...(annotations ? { annotations } : {}),
  },
  data,
});
const caConfigMap = cm('kube-root-ca.crt', { 'ca.crt': CA });
const other = cm('other', {});

type Fed =
  | { readonly input: 'namespaces'; readonly e: ObjectEvent<Namespace> }
  | { readonly input: 'configMaps'; readonly e: ObjectEvent<ConfigMap> };

/** run feeds the event to the spec over these stores (the event's own object applied) and syncs what it enqueued. */
function run(configMaps: readonly ConfigMap[], fed: Fed, rootCA = CA): Mutation[] {
  const stored = fed.input === 'configMaps' && fed.e.type === 'Applied' ? [fed.e.object] : [];
  const gone = fed.input === 'configMaps' && fed.e.type === 'Deleted' ? fed.e.object.metadata.name : undefined;
  const cms = [
    ...configMaps.filter((c) => c.metadata.name !== gone && !stored.some((s) => s.metadata.name === c.metadata.name)),
    ...stored,
  ];
  const spec = rootCAPublisherSpec(
    { namespaces: listerOf([ns('default'), ns('new')]), configMaps: listerOf(cms) },
    rootCA,
  );
  const keys =
    fed.input === 'namespaces' ? spec.handlers.namespaces(fed.e).enqueue : spec.handlers.configMaps(fed.e).enqueue;
  return (keys ?? []).flatMap((k) => [...spec.reconcile(k, input()).mutations]);
}

const added = (n: Namespace): Fed => ({
  input: 'namespaces',
  e: { type: 'Applied', key: n.metadata.name, object: n, old: undefined, live: true },
});
const updatedNs = (n: Namespace): Fed => ({
  input: 'namespaces',
  e: { type: 'Applied', key: n.metadata.name, object: n, old: n, live: true },
});
const updatedCm = (c: ConfigMap): Fed => ({
  input: 'configMaps',
  e: { type: 'Applied', key: `default/${c.metadata.name}`, object: c, old: c, live: true },
});
const deletedCm = (c: ConfigMap): Fed => ({
  input: 'configMaps',
  e: { type: 'Deleted', key: `default/${c.metadata.name}`, object: c, old: c, live: true },
});
const actions = (ms: readonly Mutation[]): string[][] =>
  ms.map((m) => [m.verb, m.target.namespace ?? '', m.target.name]);

describe('root-ca-certificate-publisher-controller (TestConfigMapCreation)', () => {
  it('given a new namespace, then it creates kube-root-ca.crt with the CA and the description', () => {
    const ms = run([caConfigMap], added(ns('new')));
    assert.deepEqual(actions(ms), [['Create', 'new', 'kube-root-ca.crt']]);
    assert.deepEqual(JSON.parse(ms[0]?.body ?? '{}'), {
      metadata: { name: 'kube-root-ca.crt', annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
      data: { 'ca.crt': CA },
    });
  });
  it('given another config map deleted, then nothing', () =>
    assert.deepEqual(actions(run([other, caConfigMap], deletedCm(other))), []));
  it('given the CA config map deleted, then it is created again', () =>
    assert.deepEqual(actions(run([other, caConfigMap], deletedCm(caConfigMap))), [
      ['Create', 'default', 'kube-root-ca.crt'],
    ]));
  it('given the CA config map updated with a field added or a field changed, then it is updated back', () => {
    for (const data of [{ 'ca.crt': CA, test: 'test' }, { 'ca.crt': 'abc' }]) {
      const ms = run([caConfigMap], updatedCm(cm('kube-root-ca.crt', data)));
      assert.deepEqual(actions(ms), [['Update', 'default', 'kube-root-ca.crt']]);
      const body = JSON.parse(ms[0]?.body ?? '{}') as ConfigMap;
      assert.deepEqual([body.data, ms[0]?.preconditions.resourceVersion], [{ 'ca.crt': CA }, '1']);
    }
  });
  it('given another config map updated, then nothing', () =>
    assert.deepEqual(actions(run([caConfigMap, other], updatedCm(cm('other', { aa: 'bb' })))), []));
  it('given a namespace updated into Terminating, then nothing is enqueued', () =>
    assert.deepEqual(actions(run([], updatedNs(ns('default', 'Terminating')))), []));
});

describe('root-ca-certificate-publisher-controller (TestConfigMapUpdateNoHotLoop)', () => {
  const sync = (c: ConfigMap): Mutation[] => run([c], updatedNs(ns('default')), 'fake');
  it('given the right data without the description, then it is updated with the description and the data', () => {
    const ms = sync(cm('kube-root-ca.crt', { 'ca.crt': 'fake' }));
    const body = JSON.parse(ms[0]?.body ?? '{}') as ConfigMap;
    assert.deepEqual(
      [ms.length, body.metadata.annotations?.[DESCRIPTION_ANNOTATION], body.data?.['ca.crt']],
      [1, DESCRIPTION, 'fake'],
    );
  });
  it('given the right data and any description, then no update', () => {
    for (const description of [DESCRIPTION, 'different'])
      assert.deepEqual(
        sync(cm('kube-root-ca.crt', { 'ca.crt': 'fake' }, { [DESCRIPTION_ANNOTATION]: description })),
        [],
      );
  });
});

describe("root-ca-certificate-publisher-controller's failed writes", () => {
  const result = (verb: 'Create' | 'Update', reason: string) =>
    failedWrite(
      {
        controller: 'root-ca-certificate-publisher-controller',
        verb,
        kind: 'ConfigMap',
        resource: 'configmaps',
        name: 'kube-root-ca.crt',
      },
      reason === 'Conflict' ? 'Conflict' : 'Failed',
      reason,
    );
  const spec = rootCAPublisherSpec({ namespaces: listerOf([ns('default')]), configMaps: listerOf([]) }, CA);
  it('given a create into a gone or terminating namespace, then no error, and no create again while the store shows it so (upstream returns nil)', () => {
    const doomed = [[], [ns('default', 'Terminating')]];
    for (const [reason, namespaces] of [
      ['NotFound', doomed[0]!],
      ['NamespaceTerminating', doomed[1]!],
    ] as const) {
      const inStore = rootCAPublisherSpec({ namespaces: listerOf(namespaces), configMaps: listerOf([]) }, CA);
      assert.deepEqual(inStore.reconcile('default', input([result('Create', reason)])), { mutations: [] });
    }
    const recreated = spec.reconcile('default', input([result('Create', 'NotFound')]));
    assert.deepEqual(
      [recreated.error, recreated.mutations.map((m) => m.verb)],
      [undefined, ['Create']],
      'back: created',
    );
  });
  it('given any other failed write, then the sync is an error naming it, writing nothing until its retry', () => {
    for (const r of [result('Create', 'InternalError'), result('Update', 'Conflict')]) {
      const d = spec.reconcile('default', input([r]));
      assert.deepEqual([d.mutations.length, d.error], [0, `${r.verb} default/kube-root-ca.crt: boom`]);
    }
  });
});
