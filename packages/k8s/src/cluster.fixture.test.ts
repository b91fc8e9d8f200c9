import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generatedName } from '@kcm-bus/runtime/mutation/index.ts';
import { byNamespace } from '@kcm-bus/runtime/store/index.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { applyMutations, changeObject, type Cluster, failuresOf, newCluster, objectNames } from './cluster.fixture.ts';
import type { Pod, ReplicationController } from './core-v1.ts';
import { listerOf } from './lister.fixture.ts';
import {
  createDraft,
  deleteDraft,
  type MutationDraft,
  mutationLog,
  patchDraft,
  recordEventDraft,
} from './mutation-drafts.ts';
import { converge, type Reconciled } from './reconcile.fixture.ts';

type TestKinds = { readonly pods: Pod; readonly replicationcontrollers: ReplicationController };

const NOW = new Date('2026-03-01T12:00:00Z');
const PODS = watchedKind('pods');
const RCS = watchedKind('replicationcontrollers');
const rc: ReplicationController = {
  metadata: { name: 'web', namespace: 'default', uid: 'rc-uid', resourceVersion: '7' },
  spec: {},
};
const pod: Pod = { metadata: { name: 'web-1', namespace: 'default', uid: 'pod-uid', resourceVersion: '3' } };

function cluster(): Cluster<TestKinds> {
  return newCluster<TestKinds>({ pods: [pod], replicationcontrollers: [rc] });
}

/** write applies drafts as one reconcile's mutations. */
function write(c: Cluster<TestKinds>, ...drafts: MutationDraft[]): ReturnType<typeof applyMutations<TestKinds>> {
  const log = mutationLog('test-controller', 'default/web', [{ topic: 't', partition: 0, offset: 1 }], NOW);
  for (const d of drafts) log.push(d);
  return applyMutations(c, log.mutations(), NOW);
}

describe('the fake API: Create', () => {
  it("given a generateName body, then the object gets the writer's generated name, a uid and a resourceVersion, and an Applied event", () => {
    const c = cluster();
    const { results, watch } = write(c, createDraft(PODS, 'default', { metadata: { generateName: 'web-' } }));
    const name = generatedName('web-', results[0]!.mutationId);
    assert.deepEqual([results[0]!.outcome, results[0]!.name], ['Applied', name]);
    assert.deepEqual(c.objects.pods.get(`default/${name}`)?.metadata.uid, `uid-${name}`);
    assert.deepEqual(
      watch.map((e) => [e.resource, e.type, e.object.metadata.name, e.old]),
      [['pods', 'Applied', name, undefined]],
    );
  });
  it('given the same Create replayed, then it is AlreadyDone and not counted', () => {
    const c = cluster();
    const draft = createDraft(PODS, 'default', { metadata: { generateName: 'web-' } });
    write(c, draft);
    assert.deepEqual([write(c, draft).results[0]!.outcome, c.createCalls], ['AlreadyDone', 1]);
  });
  it('given a quota of 1 pod, or a write error on pods, then the Create fails (403, 500)', () => {
    const c = cluster();
    c.createLimit = 1;
    assert.deepEqual(
      failuresOf(write(c, createDraft(PODS, 'default', { metadata: { generateName: 'a-' } })).results).map(
        (r) => r.status,
      ),
      [403],
    );
    c.createLimit = undefined;
    c.writeError = { resource: 'pods', message: 'fake Error' };
    assert.deepEqual(
      write(c, createDraft(PODS, 'default', { metadata: { generateName: 'b-' } })).results.map((r) => [
        r.status,
        r.message,
      ]),
      [[500, 'fake Error']],
    );
    assert.deepEqual(objectNames(c, 'pods'), ['web-1']);
  });
});

describe('the fake API: Delete, Patch, UpdateStatus, Update, RecordEvent', () => {
  it('given a Delete naming another UID, then Conflict; naming this one, then gone with a Deleted event carrying the last state', () => {
    const c = cluster();
    assert.equal(write(c, deleteDraft(PODS, { ...pod.metadata, uid: 'other' })).results[0]!.outcome, 'Conflict');
    const { watch } = write(c, deleteDraft(PODS, pod.metadata));
    assert.deepEqual([c.objects.pods.size, watch[0]?.type, watch[0]?.object], [0, 'Deleted', pod]);
  });
  it("given a json patch, then the writer's UID test comes first: a recreated namesake makes it a Conflict", () => {
    const c = cluster();
    const labels = patchDraft(PODS, pod.metadata, [{ op: 'add', path: '/metadata/labels', value: { a: 'b' } }]);
    assert.deepEqual(
      write(c, labels).watch.map((e) => e.object.metadata.labels),
      [{ a: 'b' }],
    );
    changeObject(c, 'pods', 'default/web-1', (p) => ({ ...p, metadata: { ...p.metadata, uid: 'recreated' } }));
    assert.deepEqual(
      write(c, labels).results.map((r) => [r.outcome, r.status]),
      [['Conflict', 422]],
    );
  });
  it('given UpdateStatus with the cached resourceVersion, then only the status changes; with a stale one, then Conflict', () => {
    const c = cluster();
    const log = mutationLog('test-controller', 'default/web', [], NOW);
    const body = JSON.stringify({ ...rc, spec: { replicas: 9 }, status: { replicas: 1 } });
    const target = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      namespace: 'default',
      name: 'web',
      resource: RCS.plural,
      subresource: null,
    };
    const put = (verb: 'Update' | 'UpdateStatus', resourceVersion: string): MutationDraft => ({
      verb,
      target,
      preconditions: { uid: 'rc-uid', resourceVersion },
      body,
      patch: null,
      patchType: null,
      event: null,
    });
    const [status, stale] = [log.push(put('UpdateStatus', '7')), log.push(put('UpdateStatus', '7'))];
    const { results } = applyMutations(c, [status, stale], NOW);
    assert.deepEqual(
      results.map((r) => r.outcome),
      ['Applied', 'Conflict'],
    );
    const stored = c.objects.replicationcontrollers.get('default/web')!;
    assert.deepEqual([stored.spec, stored.status], [{}, { replicas: 1 }]);
    applyMutations(c, [log.push(put('Update', stored.metadata.resourceVersion!))], NOW);
    const updated = c.objects.replicationcontrollers.get('default/web')!;
    assert.deepEqual([updated.spec, updated.status], [{ replicas: 9 }, { replicas: 1 }]);
  });
  it('given a RecordEvent, then the event is recorded and nothing is watched', () => {
    const c = cluster();
    const { watch } = write(
      c,
      recordEventDraft(
        'test',
        { apiVersion: 'v1', kind: 'ReplicationController', metadata: rc.metadata },
        'Normal',
        'Tested',
        'hello',
      ),
    );
    assert.deepEqual([c.events.map((e) => e.message), watch], [['hello'], []]);
  });
});

describe('converge', () => {
  it('given a reconcile that writes until 3 pods exist, then it converges after the rounds that wrote', () => {
    const c = cluster();
    const reconcile = (): Reconciled => {
      const log = mutationLog(
        'test-controller',
        'default/web',
        [{ topic: 't', partition: 0, offset: c.objects.pods.size }],
        NOW,
      );
      if (c.objects.pods.size < 3) log.push(createDraft(PODS, 'default', { metadata: { generateName: 'web-' } }));
      return { mutations: log.mutations() };
    };
    assert.equal(converge(c, 'default/web', reconcile, { now: NOW }), 2);
  });
  it('given a reconcile that always errs, then the check fails after maxRounds', () => {
    assert.throws(
      () => converge(cluster(), 'default/web', () => ({ mutations: [], error: 'never' }), { now: NOW, maxRounds: 3 }),
      /default\/web did not converge in 3 rounds/,
    );
  });
});

describe('listerOf', () => {
  it("given objects and the controller's indexers, then a runtime Store answers get, list and byIndex", () => {
    const lister = listerOf([pod, { metadata: { ...pod.metadata, name: 'x', namespace: 'other' } }], {
      namespace: byNamespace,
    });
    assert.equal(lister.get('default/web-1'), pod);
    assert.deepEqual(
      lister.byIndex('namespace', 'other').map((p) => p.metadata.name),
      ['x'],
    );
    assert.throws(() => lister.byIndex('missing', 'x'), /Index with name missing does not exist/);
  });
});
