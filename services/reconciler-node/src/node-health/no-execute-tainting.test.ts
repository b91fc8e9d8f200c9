import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { at, newHarness, node, ready, setStatus, taintKeys } from './node-health.fixture.ts';
import { MONITOR_KEY, NO_EXECUTE_KEY } from './node-health-spec.ts';

const T0 = '2017-01-01T12:00:00Z';
const OLD = '2015-01-01T12:00:00Z';
const UNREACHABLE = 'node.kubernetes.io/unreachable:NoExecute';
const NOT_READY = 'node.kubernetes.io/not-ready:NoExecute';

describe('NoExecute tainting: TestApplyNoExecuteTaintsToUnreachableNode', () => {
  it('given a node silent past the grace period, then its status write is seen first and the pass it triggers adds unreachable; a heartbeat removes it', () => {
    const h = newHarness([node('node0', [ready('True', T0)]), node('node1', [ready('True', T0)])]);
    h.run(MONITOR_KEY, at(0));
    setStatus(h, 'node1', [ready('True', at(40).toISOString(), T0)]);
    h.run(MONITOR_KEY, at(40));
    assert.deepEqual(taintKeys(h, 'node0'), [], 'no taint within the grace period');
    const monitor = h.run(MONITOR_KEY, at(51));
    assert.deepEqual(
      monitor.mutations.map((m) => [m.verb, m.event?.reason]),
      [['UpdateStatus', 'NodeNotReady']],
      'the taint waits for the status write, NodeNotReady goes with it',
    );
    assert.ok(h.enqueued().includes(NO_EXECUTE_KEY), 'the write seen enqueues the tainting pass');
    h.run(NO_EXECUTE_KEY, at(51.01));
    assert.deepEqual(taintKeys(h, 'node0'), [UNREACHABLE]);
    assert.match(h.cluster.nodes.get('node0')?.spec?.taints?.[0]?.timeAdded ?? '', /^2017-01-01T12:00:51Z$/);
    setStatus(h, 'node0', [ready('True', at(55).toISOString(), at(55).toISOString())]);
    h.run(MONITOR_KEY, at(56));
    assert.deepEqual(taintKeys(h, 'node0'), []);
    assert.deepEqual(h.cluster.conflicts, []);
  });
});

describe('NoExecute tainting: one write of a node at a time', () => {
  it('given a node gone Unknown whose NoSchedule patch is still in flight, then the NoExecute pass waits without spending its token, and taints once the patch is seen', () => {
    const h = newHarness([node('node0', [ready('True', T0)]), node('node1', [ready('True', T0)])]);
    h.run(MONITOR_KEY, at(0));
    setStatus(h, 'node1', [ready('True', at(51).toISOString(), T0)]);
    h.run(MONITOR_KEY, at(51));
    h.enqueued();
    const noSchedule = h.publish('node0', at(51.01));
    assert.deepEqual(
      noSchedule.mutations.map((m) => m.verb),
      ['Patch'],
    );
    assert.deepEqual(h.run(NO_EXECUTE_KEY, at(51.02)).mutations, [], 'the second write would meet a conflict');
    noSchedule.apply();
    assert.ok(h.enqueued().includes(NO_EXECUTE_KEY));
    h.run(NO_EXECUTE_KEY, at(51.03));
    assert.deepEqual(
      taintKeys(h, 'node0'),
      ['node.kubernetes.io/unreachable:NoSchedule', UNREACHABLE],
      'tainted at once: the token was not spent while waiting',
    );
    assert.deepEqual(h.cluster.conflicts, []);
  });
});

describe('NoExecute tainting: TestSwapUnreachableNotReadyTaints', () => {
  it('given an unreachable node turning NotReady, then the taint is swapped at once', () => {
    const h = newHarness([node('node0', [ready('Unknown', OLD)]), node('node1', [ready('True', T0)])]);
    h.run(MONITOR_KEY, at(0));
    assert.deepEqual(taintKeys(h, 'node0'), [UNREACHABLE]);
    setStatus(h, 'node0', [ready('False', '2017-01-01T12:09:00Z', T0)]);
    setStatus(h, 'node1', [ready('True', '2017-01-01T12:10:00Z', T0)]);
    const result = h.run(MONITOR_KEY, at(1));
    assert.deepEqual(taintKeys(h, 'node0'), [NOT_READY]);
    assert.deepEqual(
      result.mutations.map((m) => m.verb),
      ['Patch'],
      'one patch swaps both taints',
    );
  });
});

describe('NoExecute tainting: TestApplyNoExecuteTaintsToNodesEnqueueTwice', () => {
  it('given nodes queued twice and one Ready again, then every not-ready node is tainted and the queue does not stick', () => {
    const h = newHarness(
      [
        node('node0', [ready('Unknown', OLD)]),
        node('node1', [ready('True', T0)]),
        node('node2', [ready('False', OLD)]),
      ],
      [],
      { evictionLimiterQPS: 1000 },
    );
    h.run(MONITOR_KEY, at(0));
    h.run(NO_EXECUTE_KEY, at(0.01));
    h.run(MONITOR_KEY, at(1));
    setStatus(h, 'node0', [ready('True', '2017-01-01T12:10:00Z', T0)]);
    for (const [name, status] of [
      ['node3', 'Unknown'],
      ['node4', 'True'],
      ['node5', 'False'],
    ] as const) {
      h.cluster.nodes.set(name, {
        ...node(name, [ready(status, status === 'True' ? T0 : OLD)]),
        metadata: { ...node(name).metadata, resourceVersion: '1' },
      });
    }
    h.run(MONITOR_KEY, at(2));
    for (let ms = 1; ms < 10; ms++) h.run(NO_EXECUTE_KEY, at(2 + ms / 100));
    assert.deepEqual(taintKeys(h, 'node0'), []);
    assert.deepEqual(taintKeys(h, 'node2'), [NOT_READY]);
    assert.deepEqual(taintKeys(h, 'node3'), [UNREACHABLE]);
    assert.deepEqual(taintKeys(h, 'node5'), [NOT_READY]);
    assert.equal(h.run(NO_EXECUTE_KEY, at(3)).requeueAfterMs, undefined, 'nothing left: no requeue');
  });
});

describe('NoExecute tainting: zone states (TestMonitorNodeHealth zone cases that apply to tainting)', () => {
  it('given every node of every zone down, then no node is tainted and existing NoExecute taints are removed', () => {
    const tainted = node('node1', [ready('False', OLD)], {
      taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }],
    });
    const h = newHarness([node('node0', [ready('Unknown', OLD)]), tainted]);
    h.run(MONITOR_KEY, at(0));
    h.run(NO_EXECUTE_KEY, at(20));
    assert.deepEqual([taintKeys(h, 'node0'), taintKeys(h, 'node1')], [[], []]);
  });

  it('given a small zone in partial disruption, then tainting stops (ReducedQPSFunc = 0)', () => {
    const down = ['n1', 'n2', 'n3'].map((n) => node(n, [ready('False', OLD)]));
    const h = newHarness([node('n0', [ready('True', T0)]), ...down]);
    h.run(MONITOR_KEY, at(0));
    h.run(NO_EXECUTE_KEY, at(500));
    assert.deepEqual(
      down.map((n) => taintKeys(h, n.metadata.name)),
      [[], [], []],
    );
  });

  it('given a large zone in partial disruption, then nodes are tainted at the secondary rate', () => {
    const down = ['n1', 'n2', 'n3'].map((n) => node(n, [ready('False', OLD)]));
    const h = newHarness([node('n0', [ready('True', T0)]), ...down], [], { largeClusterThreshold: 2 });
    h.run(MONITOR_KEY, at(0));
    const tainted = (): number => down.filter((n) => taintKeys(h, n.metadata.name).length > 0).length;
    assert.equal(tainted(), 1, 'the old limiter still had its token: the new one starts full');
    assert.equal(h.run(NO_EXECUTE_KEY, at(50)).requeueAfterMs, 50_000);
    assert.equal(tainted(), 1);
    h.run(NO_EXECUTE_KEY, at(100));
    assert.equal(tainted(), 2);
  });

  it("given the last Ready node going silent, then all-zones-down removes the NoExecute taints, once the nodes' status writes are seen", () => {
    const h = newHarness([node('node0', [ready('False', OLD)]), node('node1', [ready('True', T0)])]);
    h.run(MONITOR_KEY, at(0));
    assert.deepEqual(taintKeys(h, 'node0'), [NOT_READY]);
    h.run(MONITOR_KEY, at(51));
    h.run(NO_EXECUTE_KEY, at(52));
    assert.deepEqual(taintKeys(h, 'node1'), [], 'no taint once all zones are down');
    h.run(MONITOR_KEY, at(56));
    assert.deepEqual([taintKeys(h, 'node0'), taintKeys(h, 'node1')], [[], []]);
    assert.deepEqual(h.cluster.conflicts, [], 'no write raced the status writes');
  });

  it('given a node back after all zones were down, then tainting resumes with drained limiters', () => {
    const h = newHarness(['node0', 'node1', 'node2'].map((n) => node(n, [ready('True', T0)])));
    h.run(MONITOR_KEY, at(0));
    h.run(MONITOR_KEY, at(51));
    assert.deepEqual(h.run(NO_EXECUTE_KEY, at(52)).requeueAfterMs, undefined, 'all limiters stopped');
    setStatus(h, 'node0', [ready('True', at(60).toISOString(), at(60).toISOString())]);
    h.run(MONITOR_KEY, at(60));
    assert.deepEqual([taintKeys(h, 'node1'), taintKeys(h, 'node2')], [[], []]);
    assert.equal(h.run(NO_EXECUTE_KEY, at(61)).requeueAfterMs, 9_000);
    h.run(NO_EXECUTE_KEY, at(70));
    assert.equal([taintKeys(h, 'node1'), taintKeys(h, 'node2')].filter((t) => t.length > 0).length, 1);
  });
});
