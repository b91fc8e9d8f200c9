import { BUS_INFRA, sum } from '../../lib/cpu.ts';
import type { BenchContext, Row, Scenario } from '../../lib/scenario.ts';
import { percentile } from '../../lib/stats.ts';
import { BUS_SERVICES, type Qps } from '../../lib/systems.ts';
import { N, type RolloutRun, SIZE, underKcmBus, underUpstream } from './rollout-runs.ts';

const SETTINGS: readonly Qps[] = [
  { qps: 20, burst: 30 },
  { qps: 1000, burst: 1000 },
];

/** rows are one setting's figures, upstream's run beside kcm-bus's. */
function rows(q: Qps, upstream: RolloutRun, kcmBus: RolloutRun): Row[] {
  const at = `qps ${q.qps}/${q.burst}`;
  const services = sum(kcmBus.cpu, BUS_SERVICES);
  const each = BUS_SERVICES.map((n) => `${n} ${(kcmBus.cpu[n] ?? 0).toFixed(1)}`).join(', ');
  const p = (r: RolloutRun, q: number): number | undefined => percentile(r.stepsMs, q);
  const writesNote = (r: RolloutRun): string =>
    `${r.writes.replicaSetStatus} ReplicaSet status, ${r.writes.deploymentStatus} Deployment status`;
  return [
    {
      scenario: `S14 rollout of ${N} replicas complete, ${at}`,
      unit: 's',
      upstream: upstream.seconds,
      kcmBus: kcmBus.seconds,
    },
    {
      scenario: `S14 ReplicaSet creates, updates, deletes during the rollout, ${at}`,
      unit: 'req',
      upstream: upstream.writes.replicaSets,
      kcmBus: kcmBus.writes.replicaSets,
      note: `besides: upstream ${writesNote(upstream)}; kcm-bus ${writesNote(kcmBus)}`,
    },
    {
      scenario: `S14 controller CPU-seconds during the rollout, ${at}`,
      unit: 's',
      upstream: upstream.cpu['kube-controller-manager'],
      kcmBus: services,
      note: `kube-controller-manager vs ${each}; broker, registry, Redis ${sum(kcmBus.cpu, BUS_INFRA).toFixed(1)} (${sum(upstream.cpu, BUS_INFRA).toFixed(1)} under upstream)`,
    },
    {
      scenario: `S14 readiness step to next scaling step p50, ${at}`,
      unit: 'ms',
      upstream: p(upstream, 50),
      kcmBus: p(kcmBus, 50),
      note: `${upstream.stepsMs.length} vs ${kcmBus.stepsMs.length} steps`,
    },
    {
      scenario: `S14 readiness step to next scaling step p99, ${at}`,
      unit: 'ms',
      upstream: p(upstream, 99),
      kcmBus: p(kcmBus, 99),
    },
  ];
}

async function run(ctx: BenchContext): Promise<{ rows: Row[]; data: unknown }> {
  const out: Row[] = [];
  const data: Record<string, unknown> = {};
  for (const q of SETTINGS) {
    ctx.log(`S14 rollout at ${q.qps}/${q.burst}: upstream`);
    const upstream = await underUpstream(ctx, q);
    ctx.log(`S14 rollout at ${q.qps}/${q.burst}: kcm-bus`);
    const kcmBus = await underKcmBus(ctx, q);
    data[`${q.qps}/${q.burst}`] = { upstream, kcmBus };
    out.push(...rows(q, upstream, kcmBus));
  }
  return { rows: out, data: { replicas: N, settings: SETTINGS, runs: data } };
}

/**
 * S14: a Deployment of N (default 1000, BENCH_PODS) rolled to a new image with maxSurge and maxUnavailable 25%, under
 * upstream's replicaset and deployment controllers and under kcm-bus, at client QPS 20/30 and 1000/1000.
 */
export const scenario: Scenario = {
  id: 's14',
  name: 'rollout',
  title: `Deployment of ${N} rolled to a new image`,
  run,
  knobs: [SIZE],
  measures:
    'a Deployment of N rolled to a new image (maxSurge/maxUnavailable 25%) at client QPS 20/30 and 1000/1000: seconds from ' +
    "the image change to the rollout complete, the ReplicaSet writes the apiserver served, the controllers' CPU-seconds, " +
    "and p50/p99 of the time from a new ReplicaSet's readiness step to the next scaling step",
};
