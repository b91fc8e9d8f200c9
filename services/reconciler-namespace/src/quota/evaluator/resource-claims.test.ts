import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseResourceList } from '@kcm-bus/k8s/quota-resources.ts';
import { calculateUsage } from './calculate-usage.ts';
import { NOW, registryOf, text, type Quantities } from './evaluator.fixture.ts';
import { replenishesOnUpdate, trackedBy } from './replenish.ts';
import { claimEvaluator, claimMatchingResources, claimUsage, resourceByDeviceClass } from './resource-claims.ts';

const CLAIMS = 'resourceclaims.resource.k8s.io';
const exact = (deviceClassName: string, allocationMode = 'ExactCount', count?: unknown) => ({
  deviceClassName,
  allocationMode,
  ...(count === undefined ? {} : { count }),
});
const claimOf = (...requests: readonly object[]) => ({
  metadata: { name: 'foo', namespace: 'ns' },
  spec: { devices: { requests } },
});
const exactly = (name: string, selection: object) => ({ name, exactly: selection });
const firstAvailable = (...subrequests: readonly object[]) => ({
  name: 'req-0',
  firstAvailable: subrequests.map((s, i) => ({ name: `subreq-${i}`, ...s })),
});

// Upstream's cases run with DRAExtendedResource on, so each also charges requests.deviceclass.resource.kubernetes.io/
// <class>: that name is left out here (no DeviceClasses: never matched, see resource-claims.ts).
describe('claimUsage (TestResourceClaimEvaluatorUsage)', () => {
  const counted = { 'count/resourceclaims.resource.k8s.io': '1' };
  const gpu = (devices: string) => ({ ...counted, 'gpu.deviceclass.resource.k8s.io/devices': devices });
  const simple = exactly('req-0', exact('gpu', 'ExactCount', 1));
  const cases: readonly [string, object, Record<string, string>][] = [
    ['simple', claimOf(simple), gpu('1')],
    ['many-requests', claimOf(simple, simple, simple, simple, simple), gpu('5')],
    ['count', claimOf(exactly('req-0', exact('gpu', 'ExactCount', 5))), gpu('5')],
    ['all', claimOf(exactly('req-0', exact('gpu', 'All'))), gpu('32')],
    ['unknown-count-mode', claimOf(exactly('req-0', exact('gpu', 'future-mode', 1))), gpu('0')],
    ['admin', claimOf(exactly('req-0', { ...exact('gpu', 'ExactCount', 1), adminAccess: true })), gpu('1')],
    ['prioritized-list', claimOf(firstAvailable(exact('gpu', 'ExactCount', 1))), gpu('1')],
    [
      'prioritized-list-multiple-subrequests',
      claimOf(firstAvailable(exact('gpu', 'ExactCount', 2), exact('gpu', 'ExactCount', 1))),
      gpu('2'),
    ],
    [
      'prioritized-list-multiple-subrequests-allocation-mode-all',
      claimOf(firstAvailable(exact('gpu', 'ExactCount', 1), exact('gpu', 'All'))),
      gpu('32'),
    ],
    [
      'prioritized-list-multiple-subrequests-different-device-classes',
      claimOf(firstAvailable(exact('gpu', 'ExactCount', 1), exact('tpu', 'All'))),
      { ...gpu('1'), 'tpu.deviceclass.resource.k8s.io/devices': '32' },
    ],
    [
      'extended-resource claims are charged their devices only (no owning pod to subtract)',
      {
        ...claimOf(exactly('container-0-request-0', exact('gpu', 'ExactCount', 1))),
        metadata: { name: 'foo', annotations: { 'resource.kubernetes.io/extended-resource-claim': 'true' } },
      },
      gpu('1'),
    ],
    ['a subrequest of an unknown mode charges nothing', claimOf(firstAvailable(exact('gpu', 'future-mode'))), counted],
    ['a request of an unknown kind charges nothing', claimOf({ name: 'req-0' }), counted],
    ['an absent count is Go’s zero', claimOf(exactly('req-0', exact('gpu'))), gpu('0')],
    ['no spec: the claim alone', {}, counted],
    ['wrong types read as absent', { spec: { devices: { requests: [7, { exactly: 'gpu' }] } } }, counted],
  ];
  for (const [name, claim, want] of cases) {
    it(name, () => {
      const { usage, errors } = claimUsage(claim);
      assert.deepEqual({ usage: text(usage), errors }, { usage: want, errors: [] });
    });
  }
  it('a count that is no integer is left out and reported, never thrown', () => {
    const claim = claimOf(
      exactly('req-0', exact('gpu', 'ExactCount', '2')),
      firstAvailable(exact('tpu', 'ExactCount', 1.5)),
    );
    const { usage, errors } = claimUsage(claim);
    assert.deepEqual(text(usage), gpu('0'));
    assert.deepEqual(errors, [
      'resourceclaim ns/foo request "req-0": malformed count: "2"',
      'resourceclaim ns/foo request "req-0/subreq-0": malformed count: 1.5',
    ]);
  });
});

describe('claim resources (TestResourceClaimEvaluatorMatchingResources)', () => {
  it('supported-resources: the count and per-class devices', () => {
    const items = ['count/resourceclaims.resource.k8s.io', 'gpu.deviceclass.resource.k8s.io/devices'];
    assert.deepEqual(claimMatchingResources(items), items);
  });
  it('unsupported-resources', () => {
    const items = [
      'resourceclaims',
      'storage',
      'ephemeral-storage',
      'bronze.deviceclass.resource.k8s.io/storage',
      'gpu.storage.k8s.io/requests.storage',
    ];
    assert.deepEqual(claimMatchingResources(items), []);
  });
  it('extended resource names are not matched without DeviceClasses (pods keep them)', () => {
    const items = ['requests.example.com/dongle', 'requests.deviceclass.resource.kubernetes.io/gpu', 'cpu'];
    assert.deepEqual(claimMatchingResources(items), []);
  });
});

describe('resourceByDeviceClass (V1ResourceByDeviceClass)', () => {
  it('names the devices of a class', () => {
    assert.equal(resourceByDeviceClass('gold'), 'gold.deviceclass.resource.k8s.io/devices');
  });
});

describe('the life of a ResourceClaim (e2e "capture the life of a ResourceClaim")', () => {
  // newTestResourceQuotaDRA: newTestResourceQuota's hard plus the claim count and gold devices.
  const hard: Quantities = {
    pods: '5',
    services: '10',
    'services.nodeports': '1',
    'services.loadbalancers': '1',
    replicationcontrollers: '10',
    resourcequotas: '1',
    cpu: '1',
    memory: '500Mi',
    configmaps: '10',
    secrets: '10',
    persistentvolumeclaims: '10',
    'requests.storage': '10Gi',
    'ephemeral-storage': '50Gi',
    'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '10',
    'gold.storageclass.storage.k8s.io/requests.storage': '10Gi',
    'count/replicasets.apps': '5',
    'requests.example.com/dongle': '3',
    'count/resourceclaims.resource.k8s.io': '1',
    'gold.deviceclass.resource.k8s.io/devices': '1',
  };
  const zeroed = Object.fromEntries(Object.keys(hard).map((name) => [name, '0']));
  // newTestResourceClaimForQuota, as the API server serves it (allocationMode and count defaulted).
  const claim = {
    ...claimOf(exactly('req-0', exact('gold', 'ExactCount', 1))),
    metadata: { name: 'test-claim', namespace: 'ns' },
  };
  const usedWith = (claims: readonly object[]) => {
    const known = ['pods', 'services', 'persistentvolumeclaims', 'configmaps', 'secrets', 'replicationcontrollers'];
    const objects = {
      ...Object.fromEntries(known.map((r) => [r, []])),
      resourcequotas: [{ metadata: { name: 'test-quota', namespace: 'ns' } }],
      'replicasets.apps': [],
      [CLAIMS]: claims,
    };
    const registry = registryOf(objects, ['replicasets.apps', CLAIMS]);
    return calculateUsage('ns', [], parseResourceList(hard).list, registry, undefined);
  };
  const none = { ...zeroed, resourcequotas: '1' };
  const one = { ...none, [`count/${CLAIMS}`]: '1', [resourceByDeviceClass('gold')]: '1' };
  it('no claim: the count and gold devices at 0; a claim: counted and charged; deleted: back to 0', () => {
    const lives = [[], [claim], []].map(usedWith);
    assert.deepEqual(
      lives.map((u) => ({ usage: text(u.usage), errors: u.errors })),
      [none, one, none].map((usage) => ({ usage, errors: [] })),
    );
  });
});

describe('claim evaluator in the registry (NewEvaluators)', () => {
  it('takes over the object count of the claims the monitors count', () => {
    const registry = registryOf({ [CLAIMS]: [] }, [CLAIMS]);
    const names = ['count/resourceclaims.resource.k8s.io', 'gold.deviceclass.resource.k8s.io/devices'];
    assert.deepEqual(registry.get(CLAIMS)?.matchingResources(names), names);
    assert.equal(trackedBy(registry, CLAIMS, ['gold.deviceclass.resource.k8s.io/devices']), true);
  });
  it('is absent when this process does not know claims', () => {
    assert.equal(registryOf({ pods: [] }).get(CLAIMS), undefined);
  });
  it('fails its usage when the claims cannot be listed', () => {
    const stats = claimEvaluator(() => undefined).usageStats({
      namespace: 'ns',
      scopes: [],
      resources: ['count/resourceclaims.resource.k8s.io'],
      scopeSelector: undefined,
    });
    assert.equal(stats.failure, 'failed to list content: resourceclaims.resource.k8s.io is not known');
    assert.deepEqual(text(stats.used), { 'count/resourceclaims.resource.k8s.io': '0' });
  });
  it('claim updates do not replenish (DefaultUpdateFilter has no claims case)', () => {
    assert.equal(replenishesOnUpdate(CLAIMS, claimOf(), claimOf(exactly('r', exact('gold'))), NOW), false);
  });
});
