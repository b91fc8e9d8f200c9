import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Endpoints, Pod } from '@kcm-bus/k8s/core-v1.ts';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import type { ObjectEvent } from '@kcm-bus/runtime/controller/index.ts';
import { byNamespace, NAMESPACE_INDEX } from '@kcm-bus/runtime/store/index.ts';
import { endpointsControllerSpec } from './controller-spec.ts';
import { ANNOTATION_LEADER } from './endpoints-controller.ts';
import { newService, storedEndpoints, T0, testPod } from './endpoints.fixture.ts';

const services = listerOf(
  [
    newService('ns', 'foo', { selector: { foo: 'bar' } }),
    newService('ns', 'baz', { selector: { app: 'baz' } }),
    newService('ns', 'manual', {}),
    newService('other', 'foo', { selector: { foo: 'bar' } }),
  ],
  { [NAMESPACE_INDEX]: byNamespace },
);
const spec = (batchMs = 0) =>
  endpointsControllerSpec(
    { services, pods: listerOf([]), endpoints: listerOf([]) },
    { endpointUpdatesBatchPeriodMs: batchMs },
  );
const podEvent = (object: Pod, old?: Pod, type: 'Applied' | 'Deleted' = 'Applied'): ObjectEvent<Pod> => ({
  type,
  key: `ns/${object.metadata.name}`,
  object,
  old,
  live: true,
});
const pod = testPod('ns', 0, 1, true);
const change = (p: Pod, rv: string, f: (p: Pod) => Pod): Pod => {
  const n = f(p);
  return { ...n, metadata: { ...n.metadata, resourceVersion: rv } };
};

describe('pod handlers (onPodUpdate, GetPodUpdateProjectionKey, GetServicesToUpdate)', () => {
  it('given a pod added or deleted, then the Services of its namespace selecting it are enqueued (not one without selector)', () => {
    assert.deepEqual(spec().handlers.pods(podEvent(pod)).enqueue, ['ns/foo']);
    assert.deepEqual(spec().handlers.pods(podEvent(pod, pod, 'Deleted')).enqueue, ['ns/foo']);
  });
  it('given an update with the same resourceVersion or changing nothing the Endpoints show, then nothing', () => {
    assert.deepEqual(spec().handlers.pods(podEvent(pod, pod)).enqueue, []);
    const annotated = change(pod, '9', (p) => ({ ...p, metadata: { ...p.metadata, annotations: { a: 'b' } } }));
    assert.deepEqual(spec().handlers.pods(podEvent(annotated, pod)).enqueue, []);
  });
  it("given readiness, IPs or a deletionTimestamp changed, then the pod's Services", () => {
    const notReady = change(pod, '9', (p) => ({
      ...p,
      status: { ...p.status, conditions: [{ type: 'Ready', status: 'False' }] },
    }));
    const moved = change(pod, '9', (p) => ({ ...p, status: { ...p.status, podIPs: [{ ip: '9.9.9.9' }] } }));
    const deleting = change(pod, '9', (p) => ({
      ...p,
      metadata: { ...p.metadata, deletionTimestamp: T0.toISOString() },
    }));
    for (const next of [notReady, moved, deleting])
      assert.deepEqual(spec().handlers.pods(podEvent(next, pod)).enqueue, ['ns/foo']);
  });
  it('given only the labels changed, then the Services of the old or the new labels but not both; with a pod change too, all of them', () => {
    const relabelled = change(pod, '9', (p) => ({
      ...p,
      metadata: { ...p.metadata, labels: { foo: 'bar', app: 'baz' } },
    }));
    assert.deepEqual(spec().handlers.pods(podEvent(relabelled, pod)).enqueue, ['ns/baz']);
    const both = change(relabelled, '10', (p) => ({
      ...p,
      status: { ...p.status, conditions: [{ type: 'Ready', status: 'False' }] },
    }));
    assert.deepEqual(spec().handlers.pods(podEvent(both, pod)).enqueue.toSorted(), ['ns/baz', 'ns/foo']);
  });
  it('given only the hostname changed on a labelled pod, then nothing, as upstream (old and new labels select the same Services)', () => {
    const renamed = change(pod, '9', (p) => ({ ...p, spec: { ...p.spec, hostname: 'h' } }));
    assert.deepEqual(spec().handlers.pods(podEvent(renamed, pod)).enqueue, []);
  });
  it('given a batch period, then pod changes enqueue after it (TestPodUpdatesBatching: the delaying queue keeps one per Service)', () => {
    assert.deepEqual(spec(1000).handlers.pods(podEvent(pod)), {
      enqueue: [],
      enqueueAfter: [{ key: 'ns/foo', ms: 1000 }],
    });
  });
});

describe('Service and Endpoints handlers', () => {
  const epEvent = (
    type: 'Applied' | 'Deleted',
    live: boolean,
    object: Endpoints = storedEndpoints('ns', 'gone', []),
  ): ObjectEvent<Endpoints> => ({ type, key: 'ns/gone', object, old: undefined, live });
  it('given a Service changed or deleted, then it is enqueued at once, whatever the batch period', () => {
    const foo = newService('ns', 'foo', {});
    assert.deepEqual(
      spec(1000).handlers.services({ type: 'Deleted', key: 'ns/foo', object: foo, old: undefined, live: true }),
      { enqueue: ['ns/foo'] },
    );
    assert.deepEqual(
      spec(1000).handlers.services({ type: 'Applied', key: 'ns/foo', object: foo, old: foo, live: true }),
      { enqueue: ['ns/foo'] },
    );
  });
  it('given a new Service, then it syncs at its cut, once the pods created before it are read', () => {
    assert.deepEqual(
      spec().handlers.services({
        type: 'Applied',
        key: 'ns/foo',
        object: newService('ns', 'foo', {}),
        old: undefined,
        live: true,
      }),
      { enqueue: [], enqueueAtCut: ['ns/foo'] },
    );
  });
  it('given an Endpoints delete, then its Service is enqueued (TestEndpointsDeletionEvents)', () => {
    assert.deepEqual(spec().handlers.endpoints(epEvent('Deleted', true)).enqueue, ['ns/gone']);
  });
  it('given Endpoints restored at start, then each is enqueued but a leader election record (TestCheckLeftoverEndpoints); a live add is not', () => {
    assert.deepEqual(spec().handlers.endpoints(epEvent('Applied', false)).enqueue, ['ns/gone']);
    const leader = storedEndpoints('ns', 'gone', [], { annotations: { [ANNOTATION_LEADER]: '{}' } });
    assert.deepEqual(spec().handlers.endpoints(epEvent('Applied', false, leader)).enqueue, []);
    assert.deepEqual(spec().handlers.endpoints(epEvent('Applied', true)).enqueue, []);
  });
});
