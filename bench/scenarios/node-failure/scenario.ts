/**
 * S5, a node failure timeline: the node-death script (packages/harness/src/node-death.ts) under upstream
 * kube-controller-manager (`--controllers=node-lifecycle-controller,taint-eviction-controller,
 * replicationcontroller-controller`) and under kcm-bus (watcher, writer, reconciler-rc, reconciler-node), both with
 * upstream's defaults (--node-monitor-period 5s, --node-monitor-grace-period 50s) and the RC controller's 20/30 QPS.
 * A fake kubelet of a three-node zone stops renewing; the rows are seconds from that moment to: Ready=Unknown, the
 * unreachable NoExecute taint, its pods NotReady, the eviction of a pod tolerating unreachable for 10 s, and that
 * pod's replacement Running on a live node. Goal: every step within one monitor period (5 s) of upstream.
 */
import { isDeepStrictEqual } from 'node:util';
import { inServiceScope, startService } from '@kcm-bus/harness/processes.ts';
import { nodeDeath, type NodeDeath } from '@kcm-bus/harness/node-death.ts';
import { busFlags } from '@kcm-bus/stack/endpoints.ts';
import { startUpstream } from '@kcm-bus/harness/upstream.ts';
import type { BenchContext, Row, Scenario } from '../../lib/scenario.ts';
import { reconcilerFlags, writerFlags } from '../../lib/systems.ts';

const TOLERATION_S = 10;
const STEPS: readonly [keyof NodeDeath['seconds'], string][] = [
  ['unknown', 'Ready=Unknown'],
  ['tainted', 'unreachable NoExecute taint'],
  ['notReady', 'its pods NotReady'],
  ['evicted', `pod tolerating ${TOLERATION_S} s evicted`],
  ['replaced', 'its replacement Running'],
];

async function upstreamArm(ctx: BenchContext): Promise<NodeDeath> {
  const kcm = startUpstream(ctx.e, {
    controllers: 'node-lifecycle-controller,taint-eviction-controller,replicationcontroller-controller',
  });
  try {
    return await nodeDeath(ctx.kube, 'upstream', TOLERATION_S);
  } finally {
    await kcm.stop();
  }
}

function kcmBusArm(ctx: BenchContext): Promise<NodeDeath> {
  return inServiceScope(async () => {
    await startService('writer', writerFlags(ctx.e, { qps: 20, burst: 30 }));
    await startService('reconciler-rc', reconcilerFlags(ctx.e));
    await startService('reconciler-node', busFlags(ctx.e));
    return nodeDeath(ctx.kube, 'kcm-bus', TOLERATION_S);
  });
}

async function run(ctx: BenchContext): Promise<{ rows: Row[]; data: unknown }> {
  const upstream = await upstreamArm(ctx);
  ctx.log(`s5 upstream: ${JSON.stringify(upstream.seconds)}`);
  const kcmBus = await kcmBusArm(ctx);
  ctx.log(`s5 kcm-bus: ${JSON.stringify(kcmBus.seconds)}`);
  const rows = STEPS.map(([step, label]): Row => ({
    scenario: `S5 node failure: kubelet stops → ${label}`,
    unit: 's',
    upstream: upstream.seconds[step],
    kcmBus: kcmBus.seconds[step],
    note:
      Math.abs(kcmBus.seconds[step] - upstream.seconds[step]) <= 5
        ? 'within one monitor period (goal met)'
        : 'more than one monitor period apart (goal missed)',
  }));
  const { seconds: _u, ...theirs } = upstream;
  const { seconds: _k, ...ours } = kcmBus;
  rows.push({
    scenario: "S5 node failure: end state and events as upstream's",
    unit: '',
    note: isDeepStrictEqual(theirs, ours) ? 'equal' : 'DIFFERENT (see bench.json)',
  });
  return { rows, data: { upstream, kcmBus, tolerationSeconds: TOLERATION_S } };
}

/** scenario is S5 (node lifecycle and taint eviction, side by side). */
export const scenario: Scenario = {
  id: 's5',
  name: 'node-failure',
  title: 'node failure timeline (node lifecycle, taint eviction, RC)',
  run,
  knobs: [],
  measures:
    "a fake kubelet stops renewing: seconds to Ready=Unknown, the unreachable taint, its pods NotReady, a pod's eviction " +
    "and its replacement Running, under upstream's node lifecycle, taint eviction and RC controllers and under kcm-bus's; whether the end state and events match",
};
