import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeCondition, Taint } from '@kcm-bus/k8s/node-v1.ts';
import { at, newHarness, node, ready, taintKeys } from './node-health.fixture.ts';
import { reconcileNodeLabels } from './node-update-pass.ts';

const T0 = '2017-01-01T12:00:00Z';
const cond = (type: string, status: NodeCondition['status']): NodeCondition => ({
  type,
  status,
  lastHeartbeatTime: T0,
  lastTransitionTime: T0,
});

describe('node key: TestTaintsNodeByCondition', () => {
  const cases: readonly {
    name: string;
    conditions: NodeCondition[];
    taints?: Taint[];
    unschedulable?: boolean;
    want: string[];
  }[] = [
    {
      name: 'NetworkUnavailable is true',
      conditions: [
        ready('True', T0),
        cond('MemoryPressure', 'False'),
        cond('DiskPressure', 'False'),
        cond('NetworkUnavailable', 'True'),
      ],
      want: ['node.kubernetes.io/network-unavailable:NoSchedule'],
    },
    {
      name: 'NetworkUnavailable is true (with a foreign taint and a stale controller taint)',
      conditions: [
        ready('True', T0),
        cond('MemoryPressure', 'True'),
        cond('DiskPressure', 'True'),
        cond('NetworkUnavailable', 'True'),
      ],
      taints: [
        { key: 'dedicated', value: 'db', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/pid-pressure', effect: 'NoSchedule' },
      ],
      want: [
        'dedicated:NoSchedule',
        'node.kubernetes.io/memory-pressure:NoSchedule',
        'node.kubernetes.io/disk-pressure:NoSchedule',
        'node.kubernetes.io/network-unavailable:NoSchedule',
      ],
    },
    { name: 'Ready is false', conditions: [ready('False', T0)], want: ['node.kubernetes.io/not-ready:NoSchedule'] },
    {
      name: 'Ready is unknown',
      conditions: [ready('Unknown', T0)],
      want: ['node.kubernetes.io/unreachable:NoSchedule'],
    },
    {
      name: 'unschedulable',
      conditions: [ready('True', T0)],
      unschedulable: true,
      want: ['node.kubernetes.io/unschedulable:NoSchedule'],
    },
  ];
  for (const c of cases) {
    it(`${c.name}: given the node, when its key syncs, then its NoSchedule taints mirror the conditions, and a second sync writes nothing`, () => {
      const n = node('node0', c.conditions, c.taints === undefined ? {} : { taints: c.taints });
      const h = newHarness([{ ...n, spec: { ...n.spec, ...(c.unschedulable ? { unschedulable: true } : {}) } }]);
      h.run('node0', at(0));
      assert.deepEqual(taintKeys(h, 'node0'), c.want);
      assert.deepEqual(h.run('node0', at(1)).mutations, []);
    });
  }

  it('given added NoSchedule taints, then they carry timeAdded = now (SwapNodeControllerTaint stamps every added taint)', () => {
    const h = newHarness([node('node0', [ready('False', T0)])]);
    h.run('node0', at(0));
    assert.equal(h.cluster.nodes.get('node0')?.spec?.taints?.[0]?.timeAdded, T0);
  });
});

describe('node key: TestReconcileNodeLabels', () => {
  it('No-op if node has no labels', () => {
    assert.equal(reconcileNodeLabels({ metadata: { name: 'n', uid: 'u' } }), undefined);
  });

  it('No-op if no target labels present', () => {
    assert.equal(
      reconcileNodeLabels({ metadata: { name: 'n', uid: 'u', labels: { 'topology.kubernetes.io/region': 'r' } } }),
      undefined,
    );
  });

  it("Create OS/arch beta labels when they don't exist", () => {
    const h = newHarness([
      node('node0', [ready('True', T0)], { labels: { 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' } }),
    ]);
    h.run('node0', at(0));
    assert.deepEqual(h.cluster.nodes.get('node0')?.metadata.labels, {
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'beta.kubernetes.io/arch': 'amd64',
    });
    assert.deepEqual(h.run('node0', at(1)).mutations, []);
  });

  it('Reconcile OS/arch beta labels to match stable labels', () => {
    const labels = {
      'kubernetes.io/os': 'linux',
      'beta.kubernetes.io/os': 'windows',
      'kubernetes.io/arch': 'arm64',
      'beta.kubernetes.io/arch': 'arm64',
    };
    assert.deepEqual(reconcileNodeLabels({ metadata: { name: 'n', uid: 'u', labels } }), {
      'beta.kubernetes.io/os': 'linux',
    });
  });

  it('given NoSchedule taints and labels to fix, then one patch carries both', () => {
    const h = newHarness([node('node0', [ready('False', T0)], { labels: { 'kubernetes.io/os': 'linux' } })]);
    const result = h.run('node0', at(0));
    assert.deepEqual(
      result.mutations.map((m) => [m.verb, m.patchType, m.controller]),
      [['Patch', 'strategic-merge', 'node-lifecycle-controller']],
    );
    assert.deepEqual(taintKeys(h, 'node0'), ['node.kubernetes.io/not-ready:NoSchedule']);
  });
});
