import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aCreate, aMutation, aRecordEvent, podTarget } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import { generatedName } from '@kcm-bus/runtime/mutation/index.ts';
import { toRequest } from './request.ts';
import { resourcePath } from './rest-path.ts';

const bodyOf = (text: string | null): unknown => JSON.parse(text ?? 'null');
const nodes = { apiVersion: 'v1', kind: 'Node', namespace: null, name: 'n1', resource: 'nodes', subresource: null };

describe('resourcePath', () => {
  it('given core, named-group, cluster-scoped and subresource targets, then the REST paths follow the apiserver layout', () => {
    assert.equal(resourcePath(podTarget), '/api/v1/namespaces/default/pods');
    assert.equal(resourcePath(podTarget, 'web-1', 'status'), '/api/v1/namespaces/default/pods/web-1/status');
    assert.equal(resourcePath(nodes, 'n1'), '/api/v1/nodes/n1');
    assert.equal(
      resourcePath({ apiVersion: 'coordination.k8s.io/v1', resource: 'leases', namespace: 'kube-node-lease' }, 'n1'),
      '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1',
    );
  });
});

describe('toRequest: Create', () => {
  it('given a generateName-only pod, then it is POSTed to the collection with a name derived from the mutation id', () => {
    const req = toRequest(aCreate({ id: 'm-7' }));
    assert.equal(req.method, 'POST');
    assert.equal(req.path, '/api/v1/namespaces/default/pods');
    assert.deepEqual(req.query, { fieldManager: 'replicationcontroller-controller' });
    assert.equal(req.name, generatedName('web-', 'm-7'));
    const { ownerReferences: _owner, ...metadata } = (bodyOf(req.body) as { metadata: Record<string, unknown> })
      .metadata;
    assert.deepEqual(metadata, { generateName: 'web-', namespace: 'default', name: req.name });
  });

  it('given the same mutation replayed, then the request is identical (the second meets AlreadyExists)', () => {
    assert.deepEqual(toRequest(aCreate()), toRequest(aCreate()));
  });

  it('given a generateName body whose target already names the object, then the target name is used', () => {
    assert.equal(toRequest(aCreate({ target: { ...podTarget, name: 'web-chosen' } })).name, 'web-chosen');
  });

  it('given a body with metadata.name, then that name is kept', () => {
    const body = JSON.stringify({ metadata: { name: 'web-1' } });
    assert.equal(toRequest(aCreate({ body, target: podTarget })).name, 'web-1');
  });
});

describe('toRequest: Update and UpdateStatus', () => {
  it('given an UpdateStatus, then it PUTs the status subresource with the preconditions in metadata', () => {
    const body = JSON.stringify({ metadata: { name: 'web-1' }, status: { phase: 'Running' } });
    const req = toRequest(
      aMutation({ verb: 'UpdateStatus', body, preconditions: { uid: 'u1', resourceVersion: '42' } }),
    );
    assert.equal(req.method, 'PUT');
    assert.equal(req.path, '/api/v1/namespaces/default/pods/web-1/status');
    assert.deepEqual(bodyOf(req.body), {
      metadata: { name: 'web-1', uid: 'u1', resourceVersion: '42' },
      status: { phase: 'Running' },
    });
    assert.equal(req.query['fieldManager'], 'replicationcontroller-controller');
  });

  it('given a mutation with its own field manager, then that one is used', () => {
    const body = JSON.stringify({ metadata: { name: 'web-1', resourceVersion: '3' } });
    assert.equal(
      toRequest(aMutation({ verb: 'Update', body, fieldManager: 'kcm-bus' })).query['fieldManager'],
      'kcm-bus',
    );
  });
});

describe('toRequest: Delete', () => {
  it('given a Delete, then DeleteOptions carry the UID (and resourceVersion) preconditions', () => {
    const req = toRequest(aMutation({ preconditions: { uid: 'pod-uid', resourceVersion: '9' } }));
    assert.equal(req.method, 'DELETE');
    assert.equal(req.path, '/api/v1/namespaces/default/pods/web-1');
    assert.deepEqual(bodyOf(req.body), {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      preconditions: { uid: 'pod-uid', resourceVersion: '9' },
    });
    assert.deepEqual(req.query, {});
  });

  it("given DeleteOptions in the body, then they are kept and the preconditions are the mutation's", () => {
    const body = JSON.stringify({ gracePeriodSeconds: 0, preconditions: { uid: 'other' } });
    assert.deepEqual(bodyOf(toRequest(aMutation({ body })).body), {
      gracePeriodSeconds: 0,
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      preconditions: { uid: 'pod-uid' },
    });
  });
});

describe('toRequest: Patch', () => {
  const taints = JSON.stringify({ spec: { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }] } });

  it('given a strategic merge patch with a resourceVersion precondition, then the content type is strategic and the patch carries it', () => {
    const req = toRequest(
      aMutation({
        verb: 'Patch',
        target: nodes,
        patch: taints,
        patchType: 'strategic-merge',
        preconditions: { uid: null, resourceVersion: '7' },
      }),
    );
    assert.equal(req.method, 'PATCH');
    assert.equal(req.path, '/api/v1/nodes/n1');
    assert.equal(req.headers['Content-Type'], 'application/strategic-merge-patch+json');
    assert.deepEqual(bodyOf(req.body), {
      spec: { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }] },
      metadata: { resourceVersion: '7' },
    });
  });

  it('given a merge patch without preconditions, then the patch is sent as written', () => {
    const req = toRequest(
      aMutation({
        verb: 'Patch',
        patch: '{"a":1}',
        patchType: 'merge',
        preconditions: { uid: null, resourceVersion: null },
      }),
    );
    assert.equal(req.headers['Content-Type'], 'application/merge-patch+json');
    assert.equal(req.body, '{"a":1}');
  });

  it('given a json patch with a UID precondition, then a test op comes first and preconditionTests is set', () => {
    const req = toRequest(
      aMutation({ verb: 'Patch', patch: '[{"op":"remove","path":"/spec/taints/0"}]', patchType: 'json' }),
    );
    assert.equal(req.headers['Content-Type'], 'application/json-patch+json');
    assert.deepEqual(bodyOf(req.body), [
      { op: 'test', path: '/metadata/uid', value: 'pod-uid' },
      { op: 'remove', path: '/spec/taints/0' },
    ]);
    assert.equal(req.preconditionTests, true);
  });

  it('given an apply patch, then it is apply-patch+yaml with the field manager and force', () => {
    const req = toRequest(
      aMutation({
        verb: 'Patch',
        patch: '{"apiVersion":"v1","kind":"Pod"}',
        patchType: 'apply',
        preconditions: { uid: null, resourceVersion: null },
      }),
    );
    assert.equal(req.headers['Content-Type'], 'application/apply-patch+yaml');
    assert.deepEqual(req.query, { fieldManager: 'replicationcontroller-controller', force: 'true' });
    assert.equal(req.preconditionTests, false);
  });

  it('given a status patch, then it goes to the status subresource', () => {
    const req = toRequest(
      aMutation({ verb: 'Patch', target: { ...nodes, subresource: 'status' }, patch: '{}', patchType: 'merge' }),
    );
    assert.equal(req.path, '/api/v1/nodes/n1/status');
  });
});

describe('toRequest: RecordEvent', () => {
  it('given a RecordEvent, then it is refused: events are written through the EventCorrelator', () => {
    assert.throws(() => toRequest(aRecordEvent()), /EventCorrelator/);
  });
});
