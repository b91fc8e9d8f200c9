import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeCondition } from '@kcm-bus/k8s/node-v1.ts';
import { at, lease, newHarness, node, ready, setStatus } from './node-health.fixture.ts';
import { MONITOR_KEY } from './node-health-spec.ts';
import { NOOP_NODE_COLLECTOR_METRICS } from './metrics.ts';

const T0 = '2017-01-01T12:00:00Z';

function conditionsOf(h: ReturnType<typeof newHarness>, name: string): readonly NodeCondition[] {
  return h.cluster.nodes.get(name)?.status?.conditions ?? [];
}

function never(type: string, transition: string): NodeCondition {
  return { type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.', lastHeartbeatTime: '2012-01-01T00:00:00Z', lastTransitionTime: transition };
}

describe('monitorNodeHealth: TestMonitorNodeHealthUpdateStatus', () => {
  it('given an old node that never posted status, when the startup grace period passes, then all four conditions are NodeStatusNeverUpdated', () => {
    const h = newHarness([node('node0')]);
    h.run(MONITOR_KEY, at(0));
    assert.deepEqual(conditionsOf(h, 'node0'), [], 'the member\'s first pass grants a fresh grace period');
    const result = h.run(MONITOR_KEY, at(61));
    assert.deepEqual(result.mutations.map((m) => m.verb), ['UpdateStatus']);
    const t = at(61).toISOString().replace('.000', '');
    assert.deepEqual(conditionsOf(h, 'node0'), ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].map((type) => never(type, t)));
  });

  it('given a new node without status, when less than the startup grace period passed, then nothing is written', () => {
    const h = newHarness([node('node0', undefined, { created: at(-10).toISOString() })]);
    h.run(MONITOR_KEY, at(0));
    assert.deepEqual(h.run(MONITOR_KEY, at(40)).mutations.filter((m) => m.verb !== 'RecordEvent'), []);
  });

  it('given a Ready node whose heartbeat stops for 1h, then Ready and DiskPressure become NodeStatusUnknown and the others NeverUpdated', () => {
    const disk: NodeCondition = { type: 'DiskPressure', status: 'False', lastHeartbeatTime: T0, lastTransitionTime: T0 };
    const h = newHarness([node('node0', [ready('True', T0), disk]), node('node1', [ready('True', T0)])]);
    h.run(MONITOR_KEY, at(0));
    setStatus(h, 'node1', [ready('True', at(3599).toISOString())]);
    h.run(MONITOR_KEY, at(3600));
    const t = '2017-01-01T13:00:00Z';
    const unknown = { status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: t };
    assert.deepEqual(conditionsOf(h, 'node0'), [{ ...ready('True', T0), ...unknown }, { ...disk, ...unknown }, never('MemoryPressure', t), never('PIDPressure', t)]);
    assert.deepEqual(h.cluster.events.map((e) => e.reason), ['RegisteredNode', 'RegisteredNode', 'NodeNotReady']);
  });

  it('given a Ready node with a fresh heartbeat, then nothing is written', () => {
    const h = newHarness([node('node0', [ready('True', T0)])]);
    h.run(MONITOR_KEY, at(0));
    setStatus(h, 'node0', [ready('True', at(3599).toISOString(), T0)]);
    assert.deepEqual(h.run(MONITOR_KEY, at(3600)).mutations, []);
  });
});

describe('monitorNodeHealth: TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease (the node part)', () => {
  it('given an old status but a Lease renewed recently, then the node stays Ready', () => {
    const h = newHarness([node('node0', [ready('True', T0)])], [lease('node0', T0)]);
    h.run(MONITOR_KEY, at(0));
    h.cluster.leases.set('kube-node-lease/node0', lease('node0', at(3599).toISOString()));
    assert.deepEqual(h.run(MONITOR_KEY, at(3600)).mutations, []);
    assert.equal(conditionsOf(h, 'node0')[0]?.status, 'True');
  });

  it('given a node without status whose Lease is renewed, then it is not marked NeverUpdated', () => {
    const h = newHarness([node('node0')], [lease('node0', T0)]);
    h.run(MONITOR_KEY, at(0));
    h.cluster.leases.set('kube-node-lease/node0', lease('node0', at(100).toISOString()));
    assert.deepEqual(h.run(MONITOR_KEY, at(101)).mutations, []);
  });

  it('given both the status and the Lease expired, then Ready becomes Unknown', () => {
    const h = newHarness([node('node0', [ready('True', T0)]), node('node1', [ready('True', T0)])], [lease('node0', T0)]);
    h.run(MONITOR_KEY, at(0));
    h.run(MONITOR_KEY, at(51));
    assert.equal(conditionsOf(h, 'node0')[0]?.status, 'Unknown');
  });
});

describe('monitorNodeHealth: TestNodeEventGeneration', () => {
  it('given a node seen first, then exactly one RegisteredNode event carries its UID; a deleted node gets RemovingNode', () => {
    const h = newHarness([node('node0', [ready('True', T0)])]);
    h.run(MONITOR_KEY, at(0));
    h.run(MONITOR_KEY, at(5));
    assert.deepEqual(h.cluster.events.map((e) => [e.reason, e.involvedObject.uid, e.message, e.source.component]),
      [['RegisteredNode', 'uid-node0', 'Node node0 event: Registered Node node0 in Controller', 'node-controller']]);
    h.cluster.nodes.delete('node0');
    h.run(MONITOR_KEY, at(10));
    assert.equal(h.cluster.events[1]?.message, 'Node node0 event: Removing Node node0 from Controller');
  });
});

describe('monitorNodeHealth: stale inputs (not upstream)', () => {
  it('given stale inputs for longer than the grace period, then nothing is marked Unknown and the staleness is reported', () => {
    const reports: boolean[] = [];
    const h = newHarness([node('node0', [ready('True', T0)]), node('node1', [ready('True', T0)])], [], {}, { ...NOOP_NODE_COLLECTOR_METRICS, inputsStale: (s) => reports.push(s) });
    h.run(MONITOR_KEY, at(0));
    h.observedAt = at(0);
    for (const s of [25, 60, 120]) assert.deepEqual(h.run(MONITOR_KEY, at(s)).mutations, []);
    assert.deepEqual(reports, [false, true, true, true]);
    assert.equal(conditionsOf(h, 'node0')[0]?.status, 'True');
  });

  it('given inputs fresh again after a stall, then every node gets a full grace period before Unknown', () => {
    const h = newHarness([node('node0', [ready('True', T0)])]);
    h.run(MONITOR_KEY, at(0));
    h.observedAt = null;
    h.run(MONITOR_KEY, at(100));
    h.observedAt = undefined;
    assert.deepEqual(h.run(MONITOR_KEY, at(120)).mutations, []);
    assert.deepEqual(h.run(MONITOR_KEY, at(169)).mutations, []);
    h.run(MONITOR_KEY, at(171));
    assert.equal(conditionsOf(h, 'node0')[0]?.status, 'Unknown');
  });
});
