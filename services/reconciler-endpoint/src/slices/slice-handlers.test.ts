import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod, Service } from '@kcm-bus/k8s/core-v1.ts';
import { type EndpointSlice, LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from '@kcm-bus/k8s/discovery-v1.ts';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import type { ObjectEvent } from '@kcm-bus/runtime/controller/index.ts';
import { byNamespace, NAMESPACE_INDEX } from '@kcm-bus/runtime/store/index.ts';
import { MANAGED_BY } from './endpointslice-controller.ts';
import { podEvent, serviceEvent } from '../handlers.ts';
import { endpointSliceEvent } from './slice-handlers.ts';
import { newPod } from './slices.fixture.ts';
import { createService } from './sync.fixture.ts';

const applied = <T>(object: T, old: T | undefined, key = 'ns/x'): ObjectEvent<T> => ({
  type: 'Applied',
  key,
  object,
  old,
  live: true,
});
const deleted = <T>(object: T, key = 'ns/x'): ObjectEvent<T> => ({
  type: 'Deleted',
  key,
  object,
  old: object,
  live: true,
});
const slice = (labels: Record<string, string>): EndpointSlice => ({
  metadata: { name: 'matching-1', namespace: 'default', uid: 'u', labels },
  addressType: 'IPv4',
});
const OURS = { [LABEL_SERVICE_NAME]: 'testing-1', [LABEL_MANAGED_BY]: MANAGED_BY };

describe('EndpointSlice handlers (endpointslice_controller_test.go)', () => {
  it('given a slice whose managed-by moved away from this controller, then its Service is queued after 1s (TestOnEndpointSliceUpdate)', () => {
    const moved = slice({ ...OURS, [LABEL_MANAGED_BY]: 'something else' });
    assert.deepEqual(endpointSliceEvent(applied(moved, slice(OURS)), 0), {
      enqueue: [],
      enqueueAfter: [{ key: 'default/testing-1', ms: 1000 }],
    });
  });
  it('given the service-name label changed, then both Services, after the batch period when it is longer (onEndpointSliceUpdate)', () => {
    const renamed = slice({ ...OURS, [LABEL_SERVICE_NAME]: 'other' });
    assert.deepEqual(endpointSliceEvent(applied(renamed, slice(OURS)), 5000).enqueueAfter, [
      { key: 'default/other', ms: 5000 },
      { key: 'default/testing-1', ms: 5000 },
    ]);
  });
  it('given a slice of ours added, changed or deleted, then its Service; a slice managed by another, nothing (onEndpointSliceAdd, …Delete)', () => {
    assert.deepEqual(endpointSliceEvent(applied(slice(OURS), undefined), 0).enqueueAfter, [
      { key: 'default/testing-1', ms: 1000 },
    ]);
    assert.deepEqual(endpointSliceEvent(deleted(slice(OURS)), 0).enqueueAfter, [
      { key: 'default/testing-1', ms: 1000 },
    ]);
    const foreign = slice({ ...OURS, [LABEL_MANAGED_BY]: 'someone' });
    assert.deepEqual(endpointSliceEvent(applied(foreign, foreign), 0), { enqueue: [], enqueueAfter: [] });
    assert.deepEqual(endpointSliceEvent(deleted(foreign), 0), { enqueue: [], enqueueAfter: [] });
  });
  it('given a slice without service-name label, then nothing (ServiceControllerKey fails)', () => {
    assert.deepEqual(
      endpointSliceEvent(applied(slice({ [LABEL_MANAGED_BY]: MANAGED_BY }), undefined), 0).enqueueAfter,
      [],
    );
  });
});

describe('Service and pod handlers (endpointslice_controller_test.go)', () => {
  const services = listerOf<Service>(
    [createService('ns', 'foo'), { metadata: { name: 'manual', namespace: 'ns', uid: 'm' }, spec: {} }],
    { [NAMESPACE_INDEX]: byNamespace },
  );
  const pod = newPod(0, 'ns', true);
  const changed = (p: Pod, f: (p: Pod) => Pod): Pod => {
    const n = f(p);
    return { ...n, metadata: { ...n.metadata, resourceVersion: '99' } };
  };
  it('given a Service updated or deleted, then it is queued at once; a new one at its cut (onServiceUpdate, onServiceDelete)', () => {
    const foo = createService('ns', 'foo');
    assert.deepEqual(serviceEvent(applied(foo, foo, 'ns/foo')), { enqueue: ['ns/foo'] });
    assert.deepEqual(serviceEvent(deleted(foo, 'ns/foo')), { enqueue: ['ns/foo'] });
    assert.deepEqual(serviceEvent(applied(foo, undefined, 'ns/foo')), { enqueue: [], enqueueAtCut: ['ns/foo'] });
  });
  it('given pod adds, updates and deletes without batching, then each queues its Services at once (TestPodAddsBatching, …Updates…, …Deletes… "with no batching")', () => {
    const notReady = changed(pod, (p) => ({
      ...p,
      status: { ...p.status, conditions: [{ type: 'Ready', status: 'False' }] },
    }));
    for (const event of [applied(pod, undefined), applied(notReady, pod), deleted(pod)])
      assert.deepEqual(podEvent(event, services, 0), { enqueue: ['ns/foo'] });
  });
  it('given a batch period, then pod changes queue their Services after it (the delaying queue keeps one per Service: "in one batch")', () => {
    assert.deepEqual(podEvent(applied(pod, undefined), services, 1000), {
      enqueue: [],
      enqueueAfter: [{ key: 'ns/foo', ms: 1000 }],
    });
  });
  it('given a pod update that changes nothing the slices show, then nothing (GetPodUpdateProjectionKey)', () => {
    const annotated = changed(pod, (p) => ({ ...p, metadata: { ...p.metadata, annotations: { a: 'b' } } }));
    assert.deepEqual(podEvent(applied(annotated, pod), services, 0), { enqueue: [] });
  });
});
