import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mutationId, type Mutation, isMutationError, validateMutation } from '@kcm-bus/runtime/mutation/index.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import type { ReplicationController } from './core-v1.ts';
import {
  createDraft,
  deleteDraft,
  type MutationDraft,
  mutationLog,
  patchDraft,
  recordEventDraft,
  updateDraft,
  updateStatusDraft,
} from './mutation-drafts.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const CAUSE = [{ topic: 'kcm.watch.pods', partition: 0, offset: 7 }];
const PODS = watchedKind('pods');
const podMeta = { name: 'web-1', namespace: 'default', uid: 'pod-uid' };
const rc: ReplicationController = {
  metadata: { name: 'web', namespace: 'default', uid: 'rc-uid', resourceVersion: '41' },
  spec: { replicas: 1 },
};

/** valid pushes a draft through a log and checks the writer would accept it. */
function valid(draft: MutationDraft): Mutation {
  const m = mutationLog('some-controller', 'default/web', CAUSE, NOW).push(draft);
  assert.ok(!isMutationError(validateMutation(JSON.parse(JSON.stringify(m)))), JSON.stringify(validateMutation(m)));
  return m;
}

describe('mutationLog', () => {
  it('given drafts pushed by a controller, then each gets the id of (controller, key, cause, attempt, position) and names the key', () => {
    const log = mutationLog('some-controller', 'default/web', CAUSE, NOW, 2);
    const [a, b] = [log.push(deleteDraft(PODS, podMeta)), log.push(deleteDraft(PODS, podMeta))];
    assert.equal(
      b.id,
      mutationId({ controller: 'some-controller', key: 'default/web', cause: CAUSE, attempt: 2, seq: 1 }),
    );
    assert.deepEqual(
      [a.controller, a.reconcileKey, a.createdAt],
      ['some-controller', 'default/web', NOW.toISOString()],
    );
    assert.deepEqual(
      log.mutations().map((m) => m.id),
      [a.id, b.id],
    );
  });
});

describe('object drafts', () => {
  it('given a generateName body, when created, then the target names the namespace and no name (the writer derives it)', () => {
    const m = valid(createDraft(PODS, 'default', { metadata: { generateName: 'web-' } }));
    assert.deepEqual(
      [m.verb, m.target.resource, m.target.namespace, m.target.name, m.body],
      ['Create', 'pods', 'default', '', '{"metadata":{"generateName":"web-"}}'],
    );
  });
  it('given a named body, when created, then the target names it (its later writes share its record key)', () => {
    const m = valid(createDraft(watchedKind('endpoints'), 'default', { metadata: { name: 'web' } }));
    assert.deepEqual([m.verb, m.target.resource, m.target.name], ['Create', 'endpoints', 'web']);
  });
  it('given an object as the lister holds it, when updated, then the whole object goes with its kind, guarded by uid and resourceVersion', () => {
    const m = valid(updateDraft(watchedKind('ReplicationController'), rc));
    assert.deepEqual(
      [m.verb, m.target.name, m.preconditions],
      ['Update', 'web', { uid: 'rc-uid', resourceVersion: '41' }],
    );
    assert.deepEqual(JSON.parse(m.body!), { ...rc, apiVersion: 'v1', kind: 'ReplicationController' });
  });
  it('given an object, when deleted or patched, then its UID is the precondition', () => {
    const del = valid(deleteDraft(PODS, podMeta));
    const patch = valid(patchDraft(PODS, podMeta, [{ op: 'remove', path: '/metadata/ownerReferences/0' }]));
    assert.deepEqual(
      [del.verb, del.target.name, del.preconditions],
      ['Delete', 'web-1', { uid: 'pod-uid', resourceVersion: null }],
    );
    assert.deepEqual(
      [patch.patchType, patch.preconditions.uid, JSON.parse(patch.patch!)],
      ['json', 'pod-uid', [{ op: 'remove', path: '/metadata/ownerReferences/0' }]],
    );
  });
  it('given a new status, when written, then the whole object goes with its kind, guarded by uid and resourceVersion', () => {
    const m = valid(updateStatusDraft(watchedKind('ReplicationController'), rc, { replicas: 1 }));
    assert.deepEqual(m.preconditions, { uid: 'rc-uid', resourceVersion: '41' });
    assert.deepEqual(JSON.parse(m.body!), {
      ...rc,
      apiVersion: 'v1',
      kind: 'ReplicationController',
      status: { replicas: 1 },
    });
  });
});

describe('recordEventDraft', () => {
  it('given an involved object and a source component, then the event is about that object, from that source, in its namespace', () => {
    const m = valid(
      recordEventDraft(
        'replication-controller',
        { apiVersion: 'v1', kind: 'ReplicationController', metadata: rc.metadata },
        'Normal',
        'SuccessfulCreate',
        'Created pod: web-x',
      ),
    );
    assert.deepEqual(m.event, {
      involvedObject: {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        namespace: 'default',
        name: 'web',
        uid: 'rc-uid',
        resourceVersion: '41',
        fieldPath: null,
      },
      type: 'Normal',
      reason: 'SuccessfulCreate',
      message: 'Created pod: web-x',
      source: { component: 'replication-controller', host: null },
    });
    assert.deepEqual([m.target.kind, m.target.namespace], ['Event', 'default']);
  });
});
