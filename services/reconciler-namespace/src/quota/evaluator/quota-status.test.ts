import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { container, registryOf, type Quantities } from './evaluator.fixture.ts';
import { missingUsage, quotaStatus, type ResourceQuotaJson } from './quota-status.ts';
import { quotaRegistry } from './registry.ts';

const testPod = (name: string, phase: string, requests: Quantities, priorityClassName?: string) => ({
  metadata: { name, namespace: 'testing' },
  spec: { containers: [container(requests)], ...(priorityClassName === undefined ? {} : { priorityClassName }) },
  status: { phase },
});
const small = { cpu: '100m', memory: '1Gi' };
/** newTestPods, newBestEffortTestPods and newTestPodsWithPriorityClasses of resource_quota_controller_test.go. */
const testPods = [
  testPod('pod-running', 'Running', small),
  testPod('pod-running-2', 'Running', small),
  testPod('pod-failed', 'Failed', small),
];
const bestEffortPods = [
  testPod('pod-running', 'Running', {}),
  testPod('pod-running-2', 'Running', {}),
  testPod('pod-failed', 'Failed', small),
];
const priorityPods = [
  testPod('pod-running', 'Running', { cpu: '500m', memory: '50Gi' }, 'high'),
  testPod('pod-running-2', 'Running', small, 'low'),
  testPod('pod-failed', 'Failed', small),
];
const hard = { cpu: '3', memory: '100Gi', pods: '5' };
const used = (cpu: string, memory: string, pods: string) => ({ cpu, memory, pods });
const quota = (spec: object, status?: object): ResourceQuotaJson => ({
  metadata: { name: 'quota', namespace: 'testing' },
  spec: { hard, ...spec },
  ...(status === undefined ? {} : { status }),
});
const priority = (operator: string, values?: string[]) => ({
  scopeSelector: {
    matchExpressions: [{ scopeName: 'PriorityClass', operator, ...(values === undefined ? {} : { values }) }],
  },
});

describe('quotaStatus (TestSyncResourceQuota)', () => {
  const cases: readonly [string, ResourceQuotaJson, readonly object[], Record<string, string>][] = [
    ['non-matching-best-effort-scoped-quota', quota({ scopes: ['BestEffort'] }), testPods, used('0', '0', '0')],
    ['matching-best-effort-scoped-quota', quota({ scopes: ['BestEffort'] }), bestEffortPods, used('0', '0', '2')],
    ['non-matching-priorityclass-scoped-quota-OpExists', quota(priority('Exists')), testPods, used('0', '0', '0')],
    [
      'matching-priorityclass-scoped-quota-OpExists',
      quota(priority('Exists')),
      priorityPods,
      used('600m', '51Gi', '2'),
    ],
    [
      'matching-priorityclass-scoped-quota-OpIn',
      quota(priority('In', ['high', 'low'])),
      priorityPods,
      used('600m', '51Gi', '2'),
    ],
    [
      'matching-priorityclass-scoped-quota-OpIn-high',
      quota(priority('In', ['high'])),
      priorityPods,
      used('500m', '50Gi', '1'),
    ],
    [
      'matching-priorityclass-scoped-quota-OpIn-low',
      quota(priority('In', ['low'])),
      priorityPods,
      used('100m', '1Gi', '1'),
    ],
    [
      'matching-priorityclass-scoped-quota-OpNotIn-low',
      quota(priority('NotIn', ['high'])),
      priorityPods,
      used('100m', '1Gi', '1'),
    ],
    [
      'non-matching-priorityclass-scoped-quota-OpIn',
      quota(priority('In', ['random'])),
      priorityPods,
      used('0', '0', '0'),
    ],
    [
      'non-matching-priorityclass-scoped-quota-OpNotIn',
      quota(priority('NotIn', ['random'])),
      testPods,
      used('200m', '2Gi', '2'),
    ],
    [
      'matching-priorityclass-scoped-quota-OpDoesNotExist',
      quota(priority('DoesNotExist')),
      testPods,
      used('200m', '2Gi', '2'),
    ],
    ['pods', quota({}), testPods, used('200m', '2Gi', '2')],
    [
      'unknown scope selector operator: the sum ends at zero, without an error',
      quota(priority('Foo', ['high'])),
      priorityPods,
      used('0', '0', '0'),
    ],
  ];
  for (const [name, q, pods, want] of cases) {
    it(name, () => {
      assert.deepEqual(quotaStatus(q, registryOf({ pods })), { status: { hard, used: want }, dirty: true, errors: [] });
    });
  }
  const rq = (specHard: Quantities, status: object): ResourceQuotaJson => ({
    metadata: { namespace: 'default', name: 'rq' },
    spec: { hard: specHard },
    status,
  });
  it('quota-spec-hard-updated', () => {
    const q = rq({ cpu: '4' }, { hard: { cpu: '3' }, used: { cpu: '0' } });
    assert.deepEqual(quotaStatus(q, registryOf({ pods: [] })), {
      status: { hard: { cpu: '4' }, used: { cpu: '0' } },
      dirty: true,
      errors: [],
    });
  });
  it('quota-unchanged (status.used absent: written)', () => {
    const q = rq({ cpu: '4' }, { hard: { cpu: '0' } });
    assert.deepEqual(quotaStatus(q, registryOf({ pods: [] })), {
      status: { hard: { cpu: '4' }, used: { cpu: '0' } },
      dirty: true,
      errors: [],
    });
  });
  it('an up-to-date status is not written', () => {
    const q = rq({ cpu: '4' }, { hard: { cpu: '4000m' }, used: { cpu: '0' } });
    assert.deepEqual(quotaStatus(q, registryOf({ pods: [] })).dirty, false);
  });
  const failingPods = quotaRegistry(
    { list: (gr, ns) => (gr === 'configmaps' || ns === '' ? [] : undefined) },
    [],
    () => new Date(),
  );
  it('quota-missing-status-with-calculation-error', () => {
    assert.deepEqual(quotaStatus(rq({ pods: '1' }, {}), failingPods), {
      status: { hard: { pods: '1' }, used: {} },
      dirty: true,
      errors: ['failed to list content: pods is not known'],
    });
  });
  it('quota-missing-status-with-partial-calculation-error', () => {
    assert.deepEqual(quotaStatus(rq({ pods: '1', configmaps: '1' }, {}), failingPods), {
      status: { hard: { pods: '1', configmaps: '1' }, used: { configmaps: '0' } },
      dirty: true,
      errors: ['failed to list content: pods is not known'],
    });
  });
  it('a malformed hard quantity is left out of the status and reported', () => {
    const q = { ...quota({}), spec: { hard: { cpu: 'abc', pods: '5' } } };
    assert.deepEqual(quotaStatus(q, registryOf({ pods: testPods })), {
      status: { hard: { pods: '5' }, used: { pods: '2' } },
      dirty: true,
      errors: ['resourcequota testing/quota spec.hard: malformed quantity "cpu": "abc"'],
    });
  });
  it('a hard resource no evaluator measures is kept in hard, without usage', () => {
    const q = { ...quota({}), spec: { hard: { 'foo.example.com/bars': '4', pods: '5' } } };
    const { status } = quotaStatus(q, registryOf({ pods: testPods }));
    assert.deepEqual(status, { hard: { 'foo.example.com/bars': '4', pods: '5' }, used: { pods: '2' } });
  });
});

describe('missingUsage (TestAddQuota)', () => {
  const registry = registryOf({ pods: testPods });
  const q = (specHard: Quantities, status?: object): ResourceQuotaJson => ({
    metadata: { namespace: 'default', name: 'rq' },
    spec: { hard: specHard },
    ...(status === undefined ? {} : { status }),
  });
  const cases: readonly [string, ResourceQuotaJson, boolean][] = [
    ['no status', q({ cpu: '4' }), true],
    ['status, no usage', q({ cpu: '4' }, { hard: { cpu: '4' } }), true],
    [
      'status, no usage(to validate it works for extended resources)',
      q({ 'requests.example/foobars.example.com': '4' }, { hard: { 'requests.example/foobars.example.com': '4' } }),
      true,
    ],
    ['status, mismatch', q({ cpu: '4' }, { hard: { cpu: '6' }, used: { cpu: '0' } }), true],
    [
      "status, missing usage, but don't care (no informer)",
      q({ 'foobars.example.com': '4' }, { hard: { 'foobars.example.com': '4' } }),
      false,
    ],
    ['ready', q({ cpu: '4' }, { hard: { cpu: '4' }, used: { cpu: '0' } }), false],
  ];
  for (const [name, quotaJson, want] of cases) {
    it(`${name}: ${want}`, () => assert.equal(missingUsage(quotaJson, registry), want));
  }
});
