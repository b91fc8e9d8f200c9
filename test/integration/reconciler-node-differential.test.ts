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

/** Each step is timed from the step that causes it, in either system. */
const CAUSE = { tainted: 'unknown', notReady: 'unknown', evicted: 'tainted', replaced: 'evicted' } as const;

/**
 * EVICTION_INTERVAL_S is one token of the zone's tainting queue at the default `--node-eviction-rate` (0.1). Upstream's
 * tainting loop reads the node from its informer: when the loop runs (every 100 ms) before the informer has seen the
 * Unknown status its monitor pass just wrote, it drops the node as "ready again" and spends the token, and the taint
 * comes when the next token does, 10 s after Unknown (a CI run printed exactly that). kcm-bus taints from the state its
 * pass decided on, at once. Upstream may be that much later on this step, never kcm-bus.
 */
const EVICTION_INTERVAL_S = 10;

/** inStep: kcm-bus took `ours` s and upstream `theirs` s from a step's cause to it; within a monitor period (or upstream's race). */
function inStep(step: keyof typeof CAUSE, ours: number, theirs: number): boolean {
  const behind = ours - theirs;
  if (Math.abs(behind) <= MONITOR_PERIOD_S) return true;
  return step === 'tainted' && behind < 0 && -behind <= EVICTION_INTERVAL_S + 1;
}

describe('reconciler-node against upstream kube-controller-manager: one node-death script, the same outcome', () => {
  after(stopAllServices);

  it("ends in the same state with the same events, each step after its cause within one monitor period of upstream's", async () => {
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
      const cause = CAUSE[step];
      const [ours, theirs] = [s2[step] - s2[cause], s1[step] - s1[cause]];
      assert.ok(
        inStep(step, ours, theirs),
        `${step}: kcm-bus ${ours.toFixed(1)} s, upstream ${theirs.toFixed(1)} s after ${cause}`,
      );
    }
  });
});
