import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { container, NOW, registryOf } from './evaluator.fixture.ts';
import { hasResourcesChanged, replenishesOnUpdate, trackedBy } from './replenish.ts';

const status = (cpu: string) => ({ name: 'foo', resources: { requests: { cpu } } });
const runningPod = (cpu: string) => ({
  spec: { containers: [container({ cpu: '2' }, undefined, 'foo')] },
  status: { phase: 'Running', containerStatuses: [status(cpu)] },
});

describe('hasResourcesChanged (TestHasResourcesChanged)', () => {
  it('not-changed-pod', () => assert.equal(hasResourcesChanged(runningPod('2'), runningPod('2')), false));
  it('changed-pod', () => assert.equal(hasResourcesChanged(runningPod('2'), runningPod('3')), true));
  it('equal quantities written apart are unchanged', () => {
    assert.equal(hasResourcesChanged(runningPod('2'), runningPod('2000m')), false);
  });
  it('resources appearing on a status is a change; a status missing from the new pod is not', () => {
    const bare = { status: { containerStatuses: [{ name: 'foo' }] } };
    assert.equal(hasResourcesChanged(bare, runningPod('2')), true);
    assert.equal(hasResourcesChanged(runningPod('2'), { status: { containerStatuses: [] } }), false);
  });
  it('init container statuses count too', () => {
    const init = (cpu: string) => ({ status: { initContainerStatuses: [status(cpu)] } });
    assert.equal(hasResourcesChanged(init('1'), init('2')), true);
  });
});

describe('replenishesOnUpdate (DefaultUpdateFilter)', () => {
  const pod = (extra: object) => ({ spec: { containers: [container({ cpu: '1' })] }, ...extra });
  const running = pod({ status: { phase: 'Running' } });
  const past = new Date(NOW.getTime() - 60_000).toISOString();
  const cases: readonly [string, string, unknown, unknown, boolean][] = [
    [
      'a pod update that changes nothing quota reads',
      'pods',
      running,
      pod({ status: { phase: 'Running' }, metadata: { labels: { a: 'b' } } }),
      false,
    ],
    ['a pod turning Succeeded', 'pods', running, pod({ status: { phase: 'Succeeded' } }), true],
    ['a pod turning Failed', 'pods', running, pod({ status: { phase: 'Failed' } }), true],
    ['a terminal pod turning Running is not', 'pods', pod({ status: { phase: 'Failed' } }), running, false],
    [
      'a pod getting an activeDeadlineSeconds (scope change)',
      'pods',
      running,
      { ...running, spec: { activeDeadlineSeconds: 5 } },
      true,
    ],
    [
      'a pod past its deletion grace',
      'pods',
      running,
      pod({ metadata: { deletionTimestamp: past, deletionGracePeriodSeconds: 30 } }),
      true,
    ],
    [
      'a pod within its deletion grace',
      'pods',
      running,
      pod({ metadata: { deletionTimestamp: past, deletionGracePeriodSeconds: 90 } }),
      false,
    ],
    ['a pod resized', 'pods', runningPod('2'), runningPod('3'), true],
    [
      'a service turning LoadBalancer',
      'services',
      { spec: { type: 'ClusterIP' } },
      { spec: { type: 'LoadBalancer' } },
      true,
    ],
    [
      'a service from ClusterIP to ExternalName',
      'services',
      { spec: { type: 'ClusterIP' } },
      { spec: { type: 'ExternalName' } },
      false,
    ],
    ['any claim update (upstream compares fresh pointers)', 'persistentvolumeclaims', {}, {}, true],
    ['a config map', 'configmaps', {}, { data: { a: 'b' } }, false],
    ['garbage objects', 'pods', 'x', null, false],
  ];
  for (const [name, resource, oldObj, newObj, want] of cases) {
    it(`${name}: ${want}`, () => assert.equal(replenishesOnUpdate(resource, oldObj, newObj, NOW), want));
  }
});

describe('trackedBy (replenishQuota)', () => {
  const registry = registryOf({ pods: [], services: [], configmaps: [], 'replicasets.apps': [] }, ['replicasets.apps']);
  const cases: readonly [string, readonly string[], boolean][] = [
    ['pods', ['cpu'], true],
    ['pods', ['requests.example.com/dongle'], true],
    ['pods', ['services'], false],
    ['services', ['services.nodeports'], true],
    ['configmaps', ['configmaps'], true],
    ['configmaps', ['count/configmaps'], true],
    ['replicasets.apps', ['count/replicasets.apps'], true],
    ['replicasets.apps', ['replicasets'], false],
    ['secrets', ['secrets'], false],
    ['persistentvolumeclaims', ['requests.storage'], false],
  ];
  for (const [resource, names, want] of cases) {
    it(`${resource} with ${names.join(',')}: ${want}`, () => assert.equal(trackedBy(registry, resource, names), want));
  }
});
