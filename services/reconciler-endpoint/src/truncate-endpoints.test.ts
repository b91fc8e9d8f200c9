import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EndpointSubset } from '@kcm-bus/k8s/core-v1.ts';
import { ANNOTATION_OVER_CAPACITY, MAX_CAPACITY } from './endpoints-controller.ts';
import { addPods, addressCounts, endpointsFixture, newService, storedEndpoints } from './endpoints.fixture.ts';
import { podToEndpointAddressForService } from './endpoint-address.ts';
import { truncateEndpoints } from './truncate-endpoints.ts';

const subsetsOf = (ready: readonly number[], notReady: readonly number[]): EndpointSubset[] =>
  ready.map((n, i) => ({
    addresses: Array.from({ length: n }, () => ({ ip: '' })),
    notReadyAddresses: Array.from({ length: notReady[i]! }, () => ({ ip: '' })),
  }));

describe('truncateEndpoints (TestTruncateEndpoints)', () => {
  const cases = [
    ['empty', [], [], [], []],
    [
      'total endpoints < max capacity',
      [50, 100, 100, 100, 100],
      [50, 100, 100, 100, 100],
      [50, 100, 100, 100, 100],
      [50, 100, 100, 100, 100],
    ],
    [
      'total endpoints = max capacity',
      [100, 100, 100, 100, 100],
      [100, 100, 100, 100, 100],
      [100, 100, 100, 100, 100],
      [100, 100, 100, 100, 100],
    ],
    [
      'total ready endpoints < max capacity, but total endpoints > max capacity',
      [90, 110, 50, 10, 20],
      [101, 200, 200, 201, 298],
      [90, 110, 50, 10, 20],
      [73, 144, 144, 145, 214],
    ],
    [
      'total ready endpoints > max capacity',
      [205, 400, 402, 400, 693],
      [100, 200, 200, 200, 300],
      [98, 191, 192, 191, 328],
      [0, 0, 0, 0, 0],
    ],
  ] as const;
  for (const [desc, ready, notReady, wantReady, wantNotReady] of cases) {
    it(`given ${desc}, then each subset keeps its share`, () => {
      const subsets = subsetsOf(ready, notReady);
      const got = truncateEndpoints(subsets) ?? subsets;
      assert.deepEqual(
        got.map((s) => [s.addresses?.length, s.notReadyAddresses?.length]),
        wantReady.map((r, i) => [r, wantNotReady[i]]),
      );
    });
  }
});

describe('syncService over capacity (TestSyncServiceOverCapacity)', () => {
  const cases = [
    ['empty', undefined, 0, 0, 0, 0, 0, false],
    [
      'annotation added past capacity, < than maxCapacity of Ready Addresses',
      undefined,
      MAX_CAPACITY - 1,
      MAX_CAPACITY - 3,
      4,
      MAX_CAPACITY - 3,
      3,
      true,
    ],
    [
      'annotation added past capacity, maxCapacity of Ready Addresses ',
      undefined,
      MAX_CAPACITY - 1,
      MAX_CAPACITY,
      10,
      MAX_CAPACITY,
      0,
      true,
    ],
    [
      'annotation removed below capacity',
      'truncated',
      MAX_CAPACITY - 1,
      MAX_CAPACITY - 1,
      0,
      MAX_CAPACITY - 1,
      0,
      false,
    ],
    [
      'annotation was set to warning previously, annotation removed at capacity',
      'warning',
      MAX_CAPACITY,
      MAX_CAPACITY,
      0,
      MAX_CAPACITY,
      0,
      false,
    ],
    [
      'annotation was set to warning previously but still over capacity',
      'warning',
      MAX_CAPACITY + 1,
      MAX_CAPACITY + 1,
      0,
      MAX_CAPACITY,
      0,
      true,
    ],
    ['annotation removed at capacity', 'truncated', MAX_CAPACITY, MAX_CAPACITY, 0, MAX_CAPACITY, 0, false],
    [
      'no endpoints change, annotation value corrected',
      'invalid',
      MAX_CAPACITY + 1,
      MAX_CAPACITY + 1,
      0,
      MAX_CAPACITY,
      0,
      true,
    ],
  ] as const;
  for (const [name, starting, existing, desired, desiredNotReady, wantReady, wantNotReady, annotated] of cases) {
    it(`given ${name}, then the Endpoints hold ${wantReady} ready and ${wantNotReady} not ready, annotated: ${annotated}`, () => {
      const svc = newService('test', 'foo', { selector: { foo: 'bar' }, ports: [{ port: 80 }], ipFamilies: ['IPv4'] });
      const pods = addPods('test', desired, 1, desiredNotReady);
      const addresses = pods.slice(0, existing).map((p) => podToEndpointAddressForService(svc, p)!);
      const annotations = starting === undefined ? {} : { annotations: { [ANNOTATION_OVER_CAPACITY]: starting } };
      const f = endpointsFixture({
        services: [svc],
        pods,
        endpoints: [storedEndpoints('test', 'foo', [{ addresses }], annotations)],
      });
      f.write(f.sync('test/foo'));
      const actual = f.cluster.objects.endpoints.get('test/foo')!;
      assert.equal(actual.metadata.annotations?.[ANNOTATION_OVER_CAPACITY], annotated ? 'truncated' : undefined);
      assert.deepEqual(addressCounts(actual.subsets), { ready: wantReady, notReady: wantNotReady });
    });
  }
  it('given more than 1000 ready pods, then every sync rewrites the Endpoints, as upstream (the annotation fails capacityAnnotationSetCorrectly)', () => {
    const f = endpointsFixture({
      services: [newService('test', 'foo', { selector: { foo: 'bar' }, ports: [{ port: 80, targetPort: 8080 }] })],
      pods: addPods('test', MAX_CAPACITY + 1, 1),
    });
    f.write(f.sync('test/foo'));
    assert.equal(f.sync('test/foo').mutations.length, 1);
  });
});
