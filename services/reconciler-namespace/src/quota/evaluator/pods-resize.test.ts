import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { container, NOW, text, type Quantities } from './evaluator.fixture.ts';
import { podUsage } from './pods.ts';

const charged = { 'count/pods': '1', pods: '1' };
const cpu = (request: string, limit: string) => ({ 'requests.cpu': request, 'limits.cpu': limit, cpu: request });
const memory = (request: string, limit: string) => ({
  'requests.memory': request,
  'limits.memory': limit,
  memory: request,
});
const resized = (requests: Quantities, limits: Quantities, status: object, conditions: object[] = []) => ({
  spec: { containers: [container(requests, limits)] },
  status: { conditions, containerStatuses: [{ name: 'ctr', ...status }] },
});
const both = { cpu: '100m', memory: '200Mi' };
const bothLimits = { cpu: '200m', memory: '400Mi' };

describe('podUsage with status resources (TestPodEvaluatorUsageResourceResize)', () => {
  const cases: readonly [string, object, Record<string, string>][] = [
    [
      'verify Max(Container.Spec.Requests, ContainerStatus.Resources) for memory resource',
      resized({ memory: '200Mi' }, { memory: '400Mi' }, { resources: { requests: { memory: '150Mi' } } }),
      { ...charged, ...memory('200Mi', '400Mi') },
    ],
    [
      'verify Max(Container.Spec.Requests, ContainerStatus.Resources) for CPU resource',
      resized({ cpu: '100m' }, { cpu: '200m' }, { resources: { requests: { cpu: '150m' } } }),
      { ...charged, ...cpu('150m', '200m') },
    ],
    [
      'verify Max(Container.Spec.Requests, ContainerStatus.Resources) for CPU and memory resource',
      resized(both, bothLimits, { resources: { requests: { cpu: '150m', memory: '250Mi' } } }),
      { ...charged, ...cpu('150m', '200m'), ...memory('250Mi', '400Mi') },
    ],
    [
      'verify Max(Container.Spec.Requests, ContainerStatus.Resources==nil) for CPU and memory resource',
      resized(both, bothLimits, {}),
      { ...charged, ...cpu('100m', '200m'), ...memory('200Mi', '400Mi') },
    ],
    [
      'allocated resources above the spec are charged',
      resized({ cpu: '100m' }, { cpu: '200m' }, { allocatedResources: { cpu: '300m' } }),
      { ...charged, ...cpu('300m', '200m') },
    ],
    [
      'an infeasible resize charges what runs, not the spec',
      resized({ cpu: '1' }, { cpu: '2' }, { resources: { requests: { cpu: '100m' }, limits: { cpu: '200m' } } }, [
        { type: 'PodResizePending', reason: 'Infeasible' },
      ]),
      { ...charged, ...cpu('100m', '200m') },
    ],
  ];
  for (const [name, item, expected] of cases) {
    it(name, () => assert.deepEqual(text(podUsage(item, NOW).usage), expected));
  }
});

describe('podUsage: sidecars, bad input, int64 overflow', () => {
  it('restartable init containers add to the containers and to each later init container', () => {
    const sidecar = { ...container({ cpu: '1' }, undefined, 'sidecar'), restartPolicy: 'Always' };
    const item = {
      spec: {
        initContainers: [sidecar, container({ cpu: '2' }, undefined, 'init')],
        containers: [container({ cpu: '1' })],
      },
    };
    assert.deepEqual(text(podUsage(item, NOW).usage), { ...charged, 'requests.cpu': '3', cpu: '3' });
  });
  it('a malformed container quantity is left out and reported once', () => {
    const item = {
      metadata: { namespace: 'ns', name: 'p' },
      spec: { containers: [container({ cpu: 'abc', memory: '1Gi' })] },
    };
    const { usage, errors } = podUsage(item, NOW);
    assert.deepEqual(text(usage), { ...charged, 'requests.memory': '1Gi', memory: '1Gi' });
    assert.deepEqual(errors, ['pod ns/p container "ctr": malformed quantity "cpu": "abc"']);
  });
  it('a quantity past the arithmetic range is malformed, not a crash', () => {
    const { usage, errors } = podUsage({ spec: { containers: [container({ cpu: '1e5000' })] } }, NOW);
    assert.deepEqual(text(usage), charged);
    assert.deepEqual(errors, ['pod / container "ctr": malformed quantity "cpu": "1e5000"']);
  });
  it('fields of the wrong type are absent', () => {
    const item = { metadata: 7, spec: { containers: 'x', initContainers: [null, 3], overhead: [] }, status: 'Running' };
    assert.deepEqual(podUsage(item, NOW), { usage: podUsage({}, NOW).usage, errors: [] });
    assert.deepEqual(text(podUsage(null, NOW).usage), charged);
  });
  it('requests summing past int64 go on exactly, as inf.Dec does', () => {
    const max = '9223372036854775807';
    const item = {
      spec: { containers: [container({ cpu: max }, { memory: '8E' }), container({ cpu: max }, { memory: '8E' })] },
    };
    assert.deepEqual(text(podUsage(item, NOW).usage), {
      ...charged,
      ...{ cpu: '18446744073709551614', 'requests.cpu': '18446744073709551614', 'limits.memory': '16E' },
    });
  });
});
