import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { busFlags, rawKube, schedulableKwokNode, testStack, testWriterFlags, uniqueName } from '../support/stack.ts';
import { nodeDeath, type NodeDeath } from '@kcm-bus/harness/node-death.ts';
import { startService, stopAllServices } from '@kcm-bus/harness/processes.ts';
import { startUpstream } from '@kcm-bus/harness/upstream.ts';

const stack = testStack();
const kube = rawKube();
const bus = busFlags(stack);

/** Both systems run with upstream's default monitor period and a short grace period. */
const MONITOR_PERIOD_S = 5;
const PERIODS = [
  '--node-monitor-period',
  `${MONITOR_PERIOD_S}s`,
  '--node-monitor-grace-period',
  '10s',
  '--node-startup-grace-period',
  '10s',
];

/**
 * PHASE_S: when a node goes Unknown depends, in either system, on where its last renewal (every 2 s) falls in the
 * monitor period: up to one period plus one renewal interval apart between two runs. The steps after it are compared
 * from that moment, within one monitor period as the issue asks.
 */
const PHASE_S = MONITOR_PERIOD_S + 2;

describe('reconciler-node against upstream kube-controller-manager: one node-death script, the same outcome', () => {
  after(stopAllServices);

  it("ends in the same state with the same events, each step after Unknown within one monitor period of upstream's", async () => {
    await schedulableKwokNode(uniqueName('kwok-nd'));
    const upstream = startUpstream(stack, {
      controllers: 'node-lifecycle-controller,taint-eviction-controller,replicationcontroller-controller',
      qps: 100,
      burst: 100,
      flags: PERIODS,
    });
    let theirs: NodeDeath;
    try {
      theirs = await nodeDeath(kube, 'upstream', 5);
    } finally {
      await upstream.stop();
    }
    await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']);
    await startService('writer', testWriterFlags(bus));
    await startService('reconciler-rc', [...bus, '--redis-url', stack.redis]);
    await startService('reconciler-node', [...bus, ...PERIODS]);
    const ours = await nodeDeath(kube, 'kcm-bus', 5);
    console.log(JSON.stringify({ upstream: theirs.seconds, kcmBus: ours.seconds }));
    const { seconds: s1, ...state1 } = theirs;
    const { seconds: s2, ...state2 } = ours;
    assert.deepEqual(state2, state1);
    assert.ok(
      Math.abs(s2.unknown - s1.unknown) <= PHASE_S,
      `Unknown: kcm-bus ${s2.unknown} s, upstream ${s1.unknown} s after the kill`,
    );
    for (const step of ['tainted', 'notReady', 'evicted', 'replaced'] as const) {
      const [ours, theirs] = [s2[step] - s2.unknown, s1[step] - s1.unknown];
      assert.ok(
        Math.abs(ours - theirs) <= MONITOR_PERIOD_S,
        `${step}: kcm-bus ${ours.toFixed(1)} s, upstream ${theirs.toFixed(1)} s after Unknown`,
      );
    }
  });
});
