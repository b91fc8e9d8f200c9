import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchingScopes, type ScopeRequirement, type ScopeSelector } from './evaluator.ts';
import { container, makePod, NOW, text } from './evaluator.fixture.ts';
import { podEvaluator } from './pods.ts';

const scope = (scopeName: string, operator = '', values?: string[]): ScopeRequirement => ({
  scopeName,
  operator,
  ...(values === undefined ? {} : { values }),
});
const [terminating, notTerminating, bestEffort, notBestEffort] = [
  'Terminating',
  'NotTerminating',
  'BestEffort',
  'NotBestEffort',
].map((s) => scope(s));
const class1 = scope('PriorityClass', 'In', ['class1']);
const crossNamespace = scope('CrossNamespacePodAffinity');
const ALL = [terminating!, notTerminating!, bestEffort!, notBestEffort!, class1, crossNamespace];
const deadline = { activeDeadlineSeconds: 30 };
const affinity = (kind: string, terms: string, term: object) => ({
  spec: {
    ...deadline,
    affinity: { [kind]: { [terms]: [terms.startsWith('preferred') ? { podAffinityTerm: term } : term] } },
  },
});
const required = 'requiredDuringSchedulingIgnoredDuringExecution';
const preferred = 'preferredDuringSchedulingIgnoredDuringExecution';
const burstable = { cpu: '1', memory: '50M', 'example.com/dongle': '1' };

describe('pod scopes (TestPodEvaluatorMatchingScopes)', () => {
  const evaluator = podEvaluator(
    () => [],
    () => NOW,
  );
  const cases: readonly [string, object, readonly ScopeRequirement[], readonly ScopeRequirement[]][] = [
    ['EmptyPod', {}, ALL, [notTerminating!, bestEffort!]],
    ['PriorityClass', { spec: { priorityClassName: 'class1' } }, ALL, [notTerminating!, bestEffort!, class1]],
    [
      'NotBestEffort',
      { spec: { containers: [container(burstable, { ...burstable, cpu: '2', memory: '100M' })] } },
      ALL,
      [notTerminating!, notBestEffort!],
    ],
    ['Terminating', { spec: deadline }, ALL, [terminating!, bestEffort!]],
    ['OnlyTerminating', { spec: deadline }, [terminating!], [terminating!]],
    [
      'CrossNamespaceRequiredAffinity',
      affinity('podAffinity', required, { labelSelector: {}, namespaces: ['ns1'], namespaceSelector: {} }),
      ALL,
      [terminating!, bestEffort!, crossNamespace],
    ],
    [
      'CrossNamespaceRequiredAffinityWithSlice',
      affinity('podAffinity', required, { labelSelector: {}, namespaces: ['ns1'] }),
      ALL,
      [terminating!, bestEffort!, crossNamespace],
    ],
    [
      'CrossNamespacePreferredAffinity',
      affinity('podAffinity', preferred, { labelSelector: {}, namespaces: ['ns2'], namespaceSelector: {} }),
      ALL,
      [terminating!, bestEffort!, crossNamespace],
    ],
    [
      'CrossNamespacePreferredAffinityWithSelector',
      affinity('podAffinity', preferred, { labelSelector: {}, namespaceSelector: {} }),
      ALL,
      [terminating!, bestEffort!, crossNamespace],
    ],
    [
      'CrossNamespacePreferredAntiAffinity',
      affinity('podAntiAffinity', preferred, { labelSelector: {}, namespaceSelector: {} }),
      ALL,
      [terminating!, bestEffort!, crossNamespace],
    ],
    [
      'CrossNamespaceRequiredAntiAffinity',
      affinity('podAntiAffinity', required, { labelSelector: {}, namespaces: ['ns3'] }),
      ALL,
      [terminating!, bestEffort!, crossNamespace],
    ],
    [
      'same-namespace affinity is not cross-namespace',
      affinity('podAffinity', required, { labelSelector: {}, namespaces: [] }),
      ALL,
      [terminating!, bestEffort!],
    ],
    [
      'status.qosClass decides BestEffort',
      { spec: { containers: [container({ cpu: '1' })] }, status: { qosClass: 'BestEffort' } },
      ALL,
      [notTerminating!, bestEffort!],
    ],
    [
      'pod-level resources decide the QoS class',
      { spec: { resources: { requests: { cpu: '1' } } } },
      ALL,
      [notTerminating!, notBestEffort!],
    ],
  ];
  for (const [name, pod, selectors, want] of cases) {
    it(name, () => assert.deepEqual(matchingScopes(evaluator, pod, selectors), { scopes: want }));
  }
  it('an unknown scope selector operator is an error, as upstream returns it', () => {
    assert.deepEqual(matchingScopes(evaluator, {}, [scope('PriorityClass', 'Foo', ['a'])]), {
      scopes: [],
      error:
        'error on matching scope {PriorityClass Foo [a]}: failed to parse and convert selector: "Foo" is not a valid scope selector operator',
    });
  });
});

describe('pod usage stats (TestPodEvaluatorUsageStats)', () => {
  const cpu1 = { cpu: '1' };
  const highIn = { matchExpressions: [scope('PriorityClass', 'In', ['high-priority'])] };
  const cases: readonly [
    string,
    readonly object[],
    readonly string[],
    ScopeSelector | undefined,
    Record<string, string>,
  ][] = [
    ['nil case', [], [], undefined, {}],
    [
      'all pods in running state',
      [makePod('p1', '', cpu1, 'Running'), makePod('p2', '', cpu1, 'Running')],
      [],
      undefined,
      { pods: '2', 'count/pods': '2', cpu: '2', 'requests.cpu': '2', 'limits.cpu': '2' },
    ],
    [
      'one pods in terminal state',
      [makePod('p1', '', cpu1, 'Running'), makePod('p2', '', cpu1, 'Succeeded')],
      [],
      undefined,
      { pods: '1', 'count/pods': '2', cpu: '1', 'requests.cpu': '1', 'limits.cpu': '1' },
    ],
  ];
  const priorityPods = [
    makePod('p1', 'high-priority', cpu1, 'Running'),
    makePod('p2', 'high-priority', cpu1, 'Succeeded'),
    makePod('p3', 'low-priority', cpu1, 'Running'),
  ];
  const one = { pods: '1', 'count/pods': '2', cpu: '1', 'requests.cpu': '1', 'limits.cpu': '1' };
  const all: typeof cases = [
    ...cases,
    ['partial pods matching quotaScopeSelector', priorityPods, [], highIn, one],
    ['partial pods matching quotaScopeSelector - w/ scopeName specified', priorityPods, ['PriorityClass'], highIn, one],
    [
      'partial pods matching quotaScopeSelector - w/ multiple scopeNames specified',
      [...priorityPods, makePod('p4', 'high-priority', {}, 'Failed')],
      ['PriorityClass', 'BestEffort'],
      highIn,
      { 'count/pods': '1' },
    ],
  ];
  for (const [name, pods, scopes, scopeSelector, want] of all) {
    it(name, () => {
      const stats = podEvaluator(
        () => pods,
        () => NOW,
      ).usageStats({ namespace: '', scopes, resources: [], scopeSelector });
      assert.deepEqual(text(stats.used), want);
    });
  }
  it('a scope selector error ends the sum without an error (CalculateUsageStats returns result, nil)', () => {
    const stats = podEvaluator(
      () => priorityPods,
      () => NOW,
    ).usageStats({
      namespace: '',
      scopes: [],
      resources: ['pods', 'cpu'],
      scopeSelector: { matchExpressions: [scope('PriorityClass', 'Foo', ['high-priority'])] },
    });
    assert.deepEqual({ ...stats, used: text(stats.used) }, { used: { pods: '0', cpu: '0' }, errors: [] });
  });
});
