import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeCondition } from '@kcm-bus/k8s/node-v1.ts';
import { at, lease, newHarness, node, ready, renewLease, setStatus } from './node-health.fixture.ts';
import { MONITOR_KEY } from './node-health-spec.ts';
import { NOOP_NODE_COLLECTOR_METRICS } from './metrics.ts';

const T0 = '2017-01-01T12:00:00Z';

function conditionsOf(h: ReturnType<typeof newHarness>, name: string): readonly NodeCondition[] {
  return h.cluster.nodes.get(name)?.status?.conditions ?? [];
}

function never(type: string, transition: string): NodeCondition {
  return {
    type,
    status: 'Unknown',
    reason: 'NodeStatusNeverUpdated',
    message: 'Kubelet never posted node status.',
    lastHeartbeatTime: '2012-01-01T00:00:00Z',
    lastTransitionTime: transition,
  };
}

describe('monitorNodeHealth: TestMonitorNodeHealthUpdateStatus', () => {
  it('given an old node that never posted status, when the startup grace period passes, then all four conditions are NodeStatusNeverUpdated', () => {
    const h = newHarness([node('node0')]);
    h.run(MONITOR_KEY, at(0));
    assert.deepEqual(conditionsOf(h, 'node0'), [], "the member's first pass grants a new grace period");
    const result = h.run(MONITOR_KEY, at(61));
    assert.deepEqual(
      result.mutations.map((m) => m.verb),
      ['UpdateStatus'],
    );
    const t = at(61).toISOString().replace('.000', '');
    assert.deepEqual(
      conditionsOf(h, 'node0'),
      ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].map((type) => never(type, t)),
    );
  });

  it('given a new node without status, when less than the startup grace period passed, then nothing is written', () => {
    const h = newHarness([node('node0', undefined, { created: at(-10).toISOString() })]);
    h.run(MONITOR_KEY, at(0));
    assert.deepEqual(
      h.run(MONITOR_KEY, at(40)).mutations.filter((m) => m.verb !== 'RecordEvent'),
      [],
    );
  });

  it('given a Ready node whose heartbeat stops for 1h, then Ready and DiskPressure become NodeStatusUnknown and the others NeverUpdated', () => {
    const disk: NodeCondition = {
      type: 'DiskPressure',
      status: 'False',
      lastHeartbeatTime: T0,
      lastTransitionTime: T0,
    };
    const h = newHarness([node('node0', [ready('True', T0), disk]), node('node1', [ready('True', T0)])]);
    h.run(MONITOR_KEY, at(0));
    setStatus(h, 'node1', [ready('True', at(3599).toISOString())]);
    h.run(MONITOR_KEY, at(3600));
    const t = '2017-01-01T13:00:00Z';
    const unknown = {
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      lastTransitionTime: t,
    };
    assert.deepEqual(conditionsOf(h, 'node0'), [
      { ...ready('True', T0), ...unknown },
      { ...disk, ...unknown },
      never('MemoryPressure', t),
      never('PIDPressure', t),
    ]);
    assert.deepEqual(
      h.cluster.events.map((e) => e.reason),
      ['RegisteredNode', 'RegisteredNode', 'NodeNotReady'],
    );
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
    const h = newHarness(
      [node('node0', [ready('True', T0)]), node('node1', [ready('True', T0)])],
      [lease('node0', T0)],
    );
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
    assert.deepEqual(
      h.cluster.events.map((e) => [e.reason, e.involvedObject.uid, e.message, e.source.component]),
      [['RegisteredNode', 'uid-node0', 'Node node0 event: Registered Node node0 in Controller', 'node-controller']],
    );
    h.cluster.nodes.delete('node0');
    h.run(MONITOR_KEY, at(10));
    assert.equal(h.cluster.events[1]?.message, 'Node node0 event: Removing Node node0 from Controller');
  });
});

describe('monitorNodeHealth: stale inputs (not upstream)', () => {
  it('given stale inputs for longer than the grace period, then nothing is marked Unknown and the staleness is reported', () => {
    const reports: boolean[] = [];
    const h = newHarness(
      [node('node0', [ready('True', T0)]), node('node1', [ready('True', T0)])],
      [],
      {},
      { ...NOOP_NODE_COLLECTOR_METRICS, inputsStale: (s) => reports.push(s) },
    );
    h.run(MONITOR_KEY, at(0));
    h.watermark = at(0);
    for (const s of [25, 60, 120]) assert.deepEqual(h.run(MONITOR_KEY, at(s)).mutations, []);
    assert.deepEqual(reports, [false, true, true, true]);
    assert.equal(conditionsOf(h, 'node0')[0]?.status, 'True');
  });

  it('given inputs fresh again after a stall, then every node gets a full grace period before Unknown', () => {
    const h = newHarness([node('node0', [ready('True', T0)])]);
    h.run(MONITOR_KEY, at(0));
    h.watermark = null;
    h.run(MONITOR_KEY, at(100));
    h.watermark = undefined;
    assert.deepEqual(h.run(MONITOR_KEY, at(120)).mutations, []);
    assert.deepEqual(h.run(MONITOR_KEY, at(169)).mutations, []);
    h.run(MONITOR_KEY, at(171));
    assert.equal(conditionsOf(h, 'node0')[0]?.status, 'Unknown');
  });
});

describe("monitorNodeHealth: silence is counted up to what the inputs vouch for (not upstream; its lease circuit breaker's job)", () => {
  it('given a Lease last read at 0 and inputs known complete up to 35 s, when now is 51 s (within the staleness bound), then nothing is written', () => {
    const h = newHarness(
      [node('node0', [ready('True', T0)]), node('node1', [ready('True', T0)])],
      [lease('node0', T0), lease('node1', T0)],
    );
    h.run(MONITOR_KEY, at(0));
    h.watermark = at(35);
    assert.deepEqual(h.run(MONITOR_KEY, at(51)).mutations, [], 'the 16 s the member has not read may hold a renewal');
    assert.equal(conditionsOf(h, 'node0')[0]?.status, 'True');
  });

  it('given that unread window held a renewal (an apiserver restarting, a watch relisting), when it is read, then the node is never marked', () => {
    const h = newHarness(
      [node('node0', [ready('True', T0)]), node('node1', [ready('True', T0)])],
      [lease('node0', T0), lease('node1', T0)],
    );
    h.run(MONITOR_KEY, at(0));
    h.watermark = at(35);
    h.run(MONITOR_KEY, at(51));
    h.cluster.leases.set('kube-node-lease/node0', lease('node0', at(40).toISOString()));
    h.watermark = at(55);
    assert.deepEqual(
      h.run(MONITOR_KEY, at(56)).mutations.filter((m) => m.target.name === 'node0'),
      [],
    );
    assert.equal(conditionsOf(h, 'node0')[0]?.status, 'True');
    assert.equal(conditionsOf(h, 'node1')[0]?.status, 'Unknown', 'node1, silent through what was read, is marked');
  });

  it('given inputs known complete past the grace period with no renewal read, then the node is marked as soon as they are', () => {
    const h = newHarness(
      [node('node0', [ready('True', T0)]), node('node1', [ready('True', T0)])],
      [lease('node0', T0)],
    );
    h.run(MONITOR_KEY, at(0));
    h.watermark = at(49);
    assert.deepEqual(h.run(MONITOR_KEY, at(60)).mutations, []);
    h.watermark = at(51);
    h.run(MONITOR_KEY, at(61));
    assert.equal(conditionsOf(h, 'node0')[0]?.status, 'Unknown');
  });

  it('given a renewal the watcher read at 2 s and a pass that first noticed it at 4 s, then silence is dated from 2 s: Unknown once 52 s are known', () => {
    const silent: unknown[] = [];
    const metrics = {
      ...NOOP_NODE_COLLECTOR_METRICS,
      nodeSilent: (n: string, e: object) => void silent.push({ n, ...e }),
    };
    const h = newHarness(
      [node('node0', [ready('True', T0)]), node('node1', [ready('True', T0)])],
      [lease('node0', T0), lease('node1', T0)],
      {},
      metrics,
    );
    h.run(MONITOR_KEY, at(0));
    renewLease(h, 'node0', at(1.5), at(2));
    renewLease(h, 'node1', at(3.5), at(4));
    h.run(MONITOR_KEY, at(4));
    h.watermark = at(52.5);
    h.run(MONITOR_KEY, at(53));
    assert.deepEqual(
      ['node0', 'node1'].map((n) => conditionsOf(h, n)[0]?.status),
      ['Unknown', 'True'],
      'node1, read at 4 s, has half a second to go',
    );
    assert.deepEqual(silent, [
      {
        n: 'node0',
        lastSignOfLife: at(2).toISOString(),
        heartbeatWatermark: at(52.5).toISOString(),
        leaseRenewTime: at(1.5).toISOString(),
      },
    ]);
  });
});
