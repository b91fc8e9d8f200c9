import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Service } from '@kcm-bus/k8s/core-v1.ts';
import { type EndpointSlice, LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from '@kcm-bus/k8s/discovery-v1.ts';
import { ANNOTATION_TRIGGER_TIME, LABEL_HEADLESS } from '../endpoints-controller.ts';
import { MANAGED_BY } from './endpointslice-controller.ts';
import {
  hintsEnabled,
  newEndpointSlice,
  placeholderSliceEqual,
  serviceControllerKey,
  setEndpointSliceLabels,
  withTriggerTime,
} from './slice-meta.ts';

const OURS = { [LABEL_SERVICE_NAME]: 'foo', [LABEL_MANAGED_BY]: MANAGED_BY };
const base: Service = {
  metadata: { name: 'foo', namespace: 'test', uid: 'svc-uid' },
  spec: { clusterIP: '1.1.1.1', ports: [{ port: 80 }], selector: { foo: 'bar' } },
};
const withLabels = (labels: Record<string, string>, clusterIP = '1.1.1.1'): Service => ({
  ...base,
  metadata: { ...base.metadata, labels },
  spec: { ...base.spec, clusterIP },
});

describe('newEndpointSlice (utils_test.go TestNewEndpointSlice)', () => {
  const meta = { ports: [{ name: 'foo', protocol: 'TCP' }], addressType: 'IPv4' as const };
  const ownerReferences = [
    { apiVersion: 'v1', kind: 'Service', name: 'foo', uid: 'svc-uid', controller: true, blockOwnerDeletion: true },
  ];
  const cases: readonly [string, Service, Record<string, string>][] = [
    ['Service without labels', base, OURS],
    ['Service with labels', withLabels({ foo: 'bar' }), { ...OURS, foo: 'bar' }],
    ['Headless Service with labels', withLabels({ foo: 'bar' }, 'None'), { ...OURS, [LABEL_HEADLESS]: '', foo: 'bar' }],
    ['Service with multiple labels', withLabels({ foo: 'bar', foo2: 'bar2' }), { ...OURS, foo: 'bar', foo2: 'bar2' }],
    [
      'Evil service hijacking endpoint slices labels',
      withLabels({ [LABEL_SERVICE_NAME]: 'bad', [LABEL_MANAGED_BY]: 'actor', foo: 'bar' }),
      { ...OURS, foo: 'bar' },
    ],
    ['Service with annotations', { ...base, metadata: { ...base.metadata, annotations: { foo: 'bar' } } }, OURS],
  ];
  for (const [name, service, labels] of cases) {
    it(`given a ${name}, then an unnamed slice with generateName foo-, the labels and a controller reference`, () => {
      assert.deepEqual(newEndpointSlice(service, meta), {
        metadata: { name: '', uid: '', generateName: 'foo-', namespace: 'test', labels, ownerReferences },
        addressType: 'IPv4',
        endpoints: [],
        ports: meta.ports,
      });
    });
  }
});

describe('setEndpointSliceLabels (utils_test.go TestSetEndpointSliceLabels)', () => {
  const slice = (labels?: Record<string, string>): Record<string, string> | undefined => labels;
  const cases: readonly [string, Record<string, string> | undefined, Service, Record<string, string>, boolean][] = [
    ['Service without labels and empty endpoint slice', slice(), base, OURS, false],
    [
      'Headless service with labels and empty endpoint slice',
      slice(),
      withLabels({ foo: 'bar' }, 'None'),
      { ...OURS, [LABEL_HEADLESS]: '', foo: 'bar' },
      true,
    ],
    [
      'Headless service without labels and empty endpoint slice',
      slice(),
      withLabels({}, 'None'),
      { ...OURS, [LABEL_HEADLESS]: '' },
      false,
    ],
    [
      'Non Headless service with Headless label and empty endpoint slice',
      slice(),
      withLabels({ [LABEL_HEADLESS]: '' }),
      OURS,
      false,
    ],
    [
      'Headless Service change to ClusterIP Service with headless label',
      { ...OURS, [LABEL_HEADLESS]: '' },
      withLabels({ [LABEL_HEADLESS]: '' }),
      OURS,
      false,
    ],
    ['Headless Service change to ClusterIP Service', { ...OURS, [LABEL_HEADLESS]: '' }, base, OURS, false],
    [
      'Headless service and endpoint slice with same labels',
      { ...OURS, foo: 'bar' },
      withLabels({ foo: 'bar' }, 'None'),
      { ...OURS, [LABEL_HEADLESS]: '', foo: 'bar' },
      false,
    ],
    [
      'Service with labels and empty endpoint slice',
      slice(),
      withLabels({ foo: 'bar' }),
      { ...OURS, foo: 'bar' },
      true,
    ],
    ['Slice with labels and service without labels', { ...OURS, foo: 'bar' }, base, OURS, true],
    [
      'Slice with reserved labels and service with labels',
      OURS,
      withLabels({ foo: 'bar' }),
      { ...OURS, foo: 'bar' },
      true,
    ],
    [
      'Evil service trying to hijack slice labels only well-known slice labels',
      OURS,
      withLabels({ [LABEL_SERVICE_NAME]: 'bad', [LABEL_MANAGED_BY]: 'actor', [LABEL_HEADLESS]: 'invalid' }),
      OURS,
      false,
    ],
    [
      'Evil service trying to hijack slice labels with updates',
      OURS,
      withLabels({ [LABEL_SERVICE_NAME]: 'bad', [LABEL_MANAGED_BY]: 'actor', foo: 'bar' }),
      { ...OURS, foo: 'bar' },
      true,
    ],
  ];
  for (const [name, sliceLabels, service, labels, changed] of cases) {
    it(`given ${name}, then ${changed ? 'an update' : 'no update'} to these labels`, () => {
      assert.deepEqual(setEndpointSliceLabels(sliceLabels, service), { labels, changed });
    });
  }
});

describe('serviceControllerKey (utils_test.go TestServiceControllerKey)', () => {
  it('given a slice without the service-name label, then no key; with it, namespace/name', () => {
    assert.equal(serviceControllerKey({ metadata: { name: 's', uid: '' }, addressType: 'IPv4' }), undefined);
    assert.equal(
      serviceControllerKey({
        metadata: { name: 's', uid: '', namespace: 'ns', labels: { [LABEL_SERVICE_NAME]: 'svc' } },
        addressType: 'IPv4',
      }),
      'ns/svc',
    );
  });
});

describe('placeholderSliceCompare (reconciler_test.go TestPlaceHolderSliceCompare)', () => {
  const empty: EndpointSlice = { metadata: { name: '', uid: '' }, addressType: 'IPv4' };
  const meta = (m: Partial<EndpointSlice['metadata']>): EndpointSlice => ({
    ...empty,
    metadata: { ...empty.metadata, ...m },
  });
  const cases: readonly [string, EndpointSlice, EndpointSlice, boolean][] = [
    ['Both are empty and non-nil', empty, empty, true],
    ['Only ObjectMeta.Name has diff', meta({ name: 'foo' }), meta({ name: 'bar' }), true],
    ['Only ObjectMeta.Labels has diff', meta({ labels: { foo: 'true' } }), meta({ labels: { bar: 'true' } }), false],
    [
      'Creation time is different',
      meta({ creationTimestamp: '1970-01-01T00:00:01Z' }),
      meta({ creationTimestamp: '1970-01-01T00:00:02Z' }),
      true,
    ],
    ['Different except for ObjectMeta', empty, { ...empty, addressType: 'IPv6' }, false],
    [
      'Empty lists and absent ones (the apiserver serves [] as null)',
      { ...empty, ports: [], endpoints: [] },
      empty,
      true,
    ],
  ];
  for (const [name, x, y, want] of cases)
    it(`given ${name}, then ${want}`, () => assert.equal(placeholderSliceEqual(x, y), want));
});

describe('hintsEnabled (utils_test.go Test_hintsEnabled)', () => {
  const hints = 'service.kubernetes.io/topology-aware-hints';
  const mode = 'service.kubernetes.io/topology-mode';
  const cases: readonly [Record<string, string> | undefined, boolean][] = [
    [undefined, false],
    [{ 'topology-hints': 'enabled' }, false],
    [{ [hints]: 'enabled' }, false],
    [{ [hints]: 'aUto' }, false],
    [{ [hints]: 'auto' }, true],
    [{ [hints]: 'Auto' }, true],
    [{ [hints]: 'disabled' }, false],
    [{ [mode]: 'aUto' }, false],
    [{ [mode]: 'auto' }, true],
    [{ [mode]: 'Auto' }, true],
    [{ [mode]: 'disabled' }, false],
    [{ [mode]: 'disabled', [hints]: 'auto' }, true],
    [{ [mode]: 'auto', [hints]: 'disabled' }, false],
  ];
  for (const [annotations, want] of cases)
    it(`given ${JSON.stringify(annotations)}, then ${want}`, () => assert.equal(hintsEnabled(annotations), want));
});

describe('addTriggerTimeAnnotation', () => {
  it('given a trigger time, then RFC 3339 with nanoseconds; given none, then the annotation is removed and an empty map omitted', () => {
    const slice: EndpointSlice = {
      metadata: { name: 's', uid: '', annotations: { [ANNOTATION_TRIGGER_TIME]: 'old' } },
      addressType: 'IPv4',
    };
    assert.equal(
      withTriggerTime(slice, Date.parse('2026-11-23T10:00:00.5Z')).metadata.annotations?.[ANNOTATION_TRIGGER_TIME],
      '2026-11-23T10:00:00.5Z',
    );
    assert.equal(withTriggerTime(slice, undefined).metadata.annotations, undefined);
  });
});
