import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseResourceList } from '@kcm-bus/k8s/quota-resources.ts';
import { calculateUsage } from './calculate-usage.ts';
import { objectCountQuotaResourceNameFor } from './evaluator.ts';
import { container, registryOf, text, type Quantities } from './evaluator.fixture.ts';

const hard = (q: Quantities) => parseResourceList(q).list;
const inNs = (name: string, extra: object = {}) => ({ metadata: { name, namespace: 'ns' }, ...extra });
const objects = {
  pods: [
    inNs('p', { spec: { containers: [container({ cpu: '250m' })] } }),
    { metadata: { name: 'elsewhere', namespace: 'other' } },
  ],
  services: [inNs('s', { spec: { type: 'NodePort', ports: [{ port: 80 }] } })],
  configmaps: [inNs('a'), inNs('b')],
  secrets: [inNs('s1')],
  resourcequotas: [inNs('q')],
  'replicasets.apps': [inNs('rs')],
  'jobs.batch': [],
};

describe('objectCountQuotaResourceNameFor', () => {
  it('names core resources bare and others with their group', () => {
    assert.equal(objectCountQuotaResourceNameFor('pods'), 'count/pods');
    assert.equal(objectCountQuotaResourceNameFor('replicasets.apps'), 'count/replicasets.apps');
  });
});

describe('calculateUsage (quota.CalculateUsage)', () => {
  const registry = registryOf(objects, ['replicasets.apps', 'jobs.batch', 'configmaps']);
  const cases: readonly [string, Quantities, readonly string[], Record<string, string>][] = [
    [
      'legacy names and count/ names alike',
      { configmaps: '9', 'count/configmaps': '9', secrets: '9', resourcequotas: '9', 'count/secrets': '9' },
      [],
      { configmaps: '2', 'count/configmaps': '2', secrets: '1', resourcequotas: '1', 'count/secrets': '1' },
    ],
    [
      'object counts of the counted resources, zero when none',
      { 'count/replicasets.apps': '9', 'count/jobs.batch': '9' },
      [],
      { 'count/replicasets.apps': '1', 'count/jobs.batch': '0' },
    ],
    [
      'pods and services of the namespace only',
      { 'count/pods': '9', 'requests.cpu': '9', 'services.nodeports': '9', 'services.loadbalancers': '9' },
      [],
      { 'count/pods': '1', 'requests.cpu': '250m', 'services.nodeports': '1', 'services.loadbalancers': '0' },
    ],
    [
      'a scope leaves object counts at zero (MatchesNoScopeFunc)',
      { configmaps: '9', pods: '9' },
      ['NotTerminating'],
      { configmaps: '0', pods: '1' },
    ],
    [
      'names no evaluator measures are left out',
      { 'foo.example.com/bars': '9', 'count/deployments.apps': '9' },
      [],
      {},
    ],
    ['replicasets is no legacy name', { replicasets: '9' }, [], {}],
  ];
  for (const [name, limits, scopes, want] of cases) {
    it(name, () => {
      const { usage, errors } = calculateUsage('ns', scopes, hard(limits), registry, undefined);
      assert.deepEqual({ usage: text(usage), errors }, { usage: want, errors: [] });
    });
  }
  it('a resource the objects do not know gets no evaluator', () => {
    const { usage } = calculateUsage('ns', [], hard({ 'count/persistentvolumeclaims': '1' }), registry, undefined);
    assert.deepEqual(text(usage), {});
  });
  it('malformed quantities of the objects are reported, the rest counted', () => {
    const pods = [inNs('p', { spec: { containers: [container({ cpu: '1x' }, { cpu: '2' })] } })];
    const { usage, errors } = calculateUsage(
      'ns',
      [],
      hard({ cpu: '1', 'limits.cpu': '1' }),
      registryOf({ pods }),
      undefined,
    );
    assert.deepEqual(text(usage), { cpu: '0', 'limits.cpu': '2' });
    assert.deepEqual(errors, ['pod ns/p container "ctr": malformed quantity "cpu": "1x"']);
  });
});
