import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TaintTimeline } from './node-health.ts';

const T0 = Date.parse('2026-11-24T10:00:00Z');
const at = (s: number): number => T0 + s * 1000;
const node = (
  name: string,
  ...keys: string[]
): { metadata: { name: string }; spec: { taints: { key: string }[] } } => ({
  metadata: { name },
  spec: { taints: keys.map((key) => ({ key })) },
});
const lease = (name: string, renewedS: number): { metadata: { name: string }; spec: { renewTime: string } } => ({
  metadata: { name },
  spec: { renewTime: new Date(at(renewedS)).toISOString() },
});

describe('TaintTimeline: the node lifecycle taints a chaos cycle saw, and how old each node Lease was', () => {
  test('given a node tainted not-ready for two polls, then clean, when observed, then one closed span with its Lease age', () => {
    const timeline = new TaintTimeline(T0);
    timeline.observe(at(1), [node('n1')], [lease('n1', 0)]);
    timeline.observe(at(59), [node('n1')], [lease('n1', 5)]);
    timeline.observe(at(60), [node('n1', 'node.kubernetes.io/not-ready')], [lease('n1', 5)]);
    timeline.observe(at(61), [node('n1', 'node.kubernetes.io/not-ready')], [lease('n1', 61)]);
    timeline.observe(at(62), [node('n1')], [lease('n1', 61)]);
    assert.deepEqual(timeline.spans, [
      { node: 'n1', key: 'node.kubernetes.io/not-ready', fromS: 60, toS: 62, leaseAgeS: 55 },
    ]);
    assert.equal(timeline.taintedNow, 0);
  });

  test('given taints still on at the last poll, then their spans stay open and taintedNow counts the nodes', () => {
    const timeline = new TaintTimeline(T0);
    timeline.observe(
      at(2),
      [node('n1', 'node.kubernetes.io/unreachable', 'node.kubernetes.io/not-ready'), node('n2', 'example.com/other')],
      [],
    );
    assert.deepEqual(
      timeline.spans.map((s) => [s.node, s.key, s.toS, s.leaseAgeS]),
      [
        ['n1', 'node.kubernetes.io/unreachable', undefined, undefined],
        ['n1', 'node.kubernetes.io/not-ready', undefined, undefined],
      ],
    );
    assert.equal(timeline.taintedNow, 1, 'one node, and not the one with a taint node lifecycle does not set');
  });

  test('given a Lease read older than one already seen (a stale list), then the newest renewal counts', () => {
    const timeline = new TaintTimeline(T0);
    timeline.observe(at(10), [node('n1')], [lease('n1', 10)]);
    timeline.observe(at(11), [node('n1')], [lease('n1', 3)]);
    timeline.observe(at(20), [node('n1', 'node.kubernetes.io/unreachable')], [lease('n1', 3)]);
    assert.equal(timeline.spans[0]?.leaseAgeS, 10);
  });

  test('given a renewal that reached the API between the last clean poll and the taint, then it does not count (it may have come after the taint)', () => {
    const timeline = new TaintTimeline(T0);
    timeline.observe(at(50), [node('n1')], [lease('n1', 0)]);
    timeline.observe(at(60), [node('n1', 'node.kubernetes.io/unreachable')], [lease('n1', 58)]);
    assert.equal(
      timeline.spans[0]?.leaseAgeS,
      60,
      'aged from the renewal at 0 s, the newest the API had at the poll at 50 s',
    );
  });

  test('given an unreachable taint with each effect, then a span each, named with its effect (NoSchedule evicts nothing)', () => {
    const timeline = new TaintTimeline(T0);
    const tainted = {
      metadata: { name: 'n1' },
      spec: {
        taints: [
          { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
          { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
        ],
      },
    };
    timeline.observe(at(1), [tainted], []);
    assert.deepEqual(
      timeline.spans.map((s) => s.key),
      ['node.kubernetes.io/unreachable:NoSchedule', 'node.kubernetes.io/unreachable:NoExecute'],
    );
    assert.equal(timeline.taintedNow, 1);
  });

  test('given a taint removed and put back, then two spans', () => {
    const timeline = new TaintTimeline(T0);
    for (const [s, keys] of [
      [1, ['node.kubernetes.io/not-ready']],
      [2, []],
      [3, ['node.kubernetes.io/not-ready']],
    ] as const)
      timeline.observe(at(s), [node('n1', ...keys)], []);
    assert.deepEqual(
      timeline.spans.map((s) => [s.fromS, s.toS]),
      [
        [1, 2],
        [3, undefined],
      ],
    );
  });
});
