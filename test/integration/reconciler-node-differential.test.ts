import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { busFlags, rawKube, schedulableKwokNode, testStack, uniqueName } from '../support/stack.ts';
import { nodeDeath, type NodeDeath } from '../support/node-death.ts';
import { startService, stopAllServices } from '../support/processes.ts';
import { startUpstream } from '../support/upstream.ts';

const stack = testStack();
const kube = rawKube();
const bus = busFlags(stack);

/** Both systems run with upstream's default monitor period and a short grace period; times must agree within a period. */
const MONITOR_PERIOD_S = 5;
const PERIODS = ['--node-monitor-period', `${MONITOR_PERIOD_S}s`, '--node-monitor-grace-period', '10s', '--node-startup-grace-period', '10s'];

describe('reconciler-node against upstream kube-controller-manager: one node-death script, the same outcome', () => {
  after(stopAllServices);

  it('ends in the same state with the same events, each step within one monitor period of upstream\'s', async () => {
    await schedulableKwokNode(uniqueName('kwok-nd'));
    const upstream = startUpstream(stack, { controllers: 'node-lifecycle-controller,taint-eviction-controller,replicationcontroller-controller', qps: 100, burst: 100, flags: PERIODS });
    let theirs: NodeDeath;
    try {
      theirs = await nodeDeath(kube, 'upstream', 5);
    } finally {
      await upstream.stop();
    }
    await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']);
    await startService('writer', [...bus, '--kubeconfig', stack.kubeconfigs.writer, '--partitions', '3', '--kube-api-qps', '100', '--kube-api-burst', '100']);
    await startService('reconciler-rc', [...bus, '--redis-url', stack.redis]);
    await startService('reconciler-node', [...bus, ...PERIODS]);
    const ours = await nodeDeath(kube, 'kcm-bus', 5);
    console.log(JSON.stringify({ upstream: theirs.seconds, kcmBus: ours.seconds }));
    const { seconds: s1, ...state1 } = theirs;
    const { seconds: s2, ...state2 } = ours;
    assert.deepEqual(state2, state1);
    for (const [step, t] of Object.entries(s1)) assert.ok(Math.abs(s2[step as keyof typeof s2] - t) <= MONITOR_PERIOD_S, `${step}: kcm-bus ${s2[step as keyof typeof s2]} s, upstream ${t} s`);
  });
});
