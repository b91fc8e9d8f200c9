import { samplePods, type PodsOverTime } from '../../lib/pods-over-time.ts';
import { BUS_INFRA, cpuMeter, stackPids } from '../../lib/cpu.ts';
import { requestMeter, type Requests } from '../../lib/kafka-requests.ts';
import { topicMeter, type TopicCounts } from '../../lib/topic-offsets.ts';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { rssBytes } from '../../lib/probes.ts';
import { BENCH_PODS, knob, knobValue, numberKnob } from '../../lib/knobs.ts';
import type { BenchContext } from '../../lib/scenario.ts';
import { rcManifest } from '@kcm-bus/harness/rc.ts';
import { deploymentManifest } from '@kcm-bus/harness/deployment.ts';
import { startUpstream } from '@kcm-bus/harness/upstream.ts';
import { warmUpControllers } from './warm-up.ts';
import { benchWatcherPid, busPids, cleanUpNamespace, startKcmBus, type Qps } from '../../lib/systems.ts';

/** SIZE is how many pods S1 scales to (BENCH_PODS); N its value. */
export const SIZE = { ...BENCH_PODS, meaning: 'pods the RC and the ReplicaSet scale to' };
export const N = numberKnob(SIZE);
const DEADLINE_MS = 600_000;

/**
 * Workload is what S1 scales: an RC (replicationcontroller-controller) or a ReplicaSet (replicaset-controller), the
 * one implementation kcm-bus runs on both kinds; `label` prefixes its rows (none for the RC, S1's first rows).
 */
export type Workload = {
  readonly label: string;
  readonly controller: string;
  readonly path: (ns: string) => string;
  readonly manifest: (replicas: number) => Record<string, unknown>;
};

export const RC: Workload = {
  label: '',
  controller: 'replicationcontroller-controller',
  path: (ns) => `/api/v1/namespaces/${ns}/replicationcontrollers`,
  manifest: (replicas) => rcManifest('s1', replicas),
};
export const RS: Workload = {
  label: 'RS ',
  controller: 'replicaset-controller',
  path: (ns) => `/apis/apps/v1/namespaces/${ns}/replicasets`,
  manifest: (replicas) => ({
    ...deploymentManifest('s1', replicas, 'nginx'),
    kind: 'ReplicaSet',
    apiVersion: 'apps/v1',
  }),
};

/** KINDS (BENCH_S1_KINDS) are the kinds S1 scales, both by default; WORKLOADS their workloads. */
export const KINDS = knob('BENCH_S1_KINDS', 'rc,rs', 'the kinds scaled: rc, rs, or both');
export const WORKLOADS: readonly Workload[] = (knobValue(KINDS) ?? '')
  .split(',')
  .map((k) => (k.trim() === 'rs' ? RS : RC));

/**
 * S1Run is one system's run: pods over time, the controller's RSS (MB) once N pods ran, and the CPU-seconds of the
 * measured processes and the Kafka requests of the kcm-bus services among them from the RC's creation until N pods ran,
 * and the offsets every kcm-bus topic gained meanwhile (under upstream: the bench's watcher's).
 */
export type S1Run = PodsOverTime & {
  readonly rssMb: number;
  readonly cpu: Readonly<Record<string, number>>;
  readonly requests: Requests;
  readonly offsets: TopicCounts;
};

/**
 * scaleRun warms the controllers up (BENCH_S1_WARM_UP_PODS), creates an RC of N in a fresh namespace, samples its
 * pods until N run, reads the controller's RSS (upstream kube-controller-manager, or reconciler-rc) with the N pods
 * still there, the CPU the processes `cpu` names used meanwhile and the Kafka requests of the kcm-bus `services`
 * (pids), then cleans up.
 */
async function scaleRun(
  ctx: BenchContext,
  w: Workload,
  ns: string,
  measured: {
    readonly pid: number | undefined;
    readonly cpu: Readonly<Record<string, number>>;
    readonly services: Readonly<Record<string, number>>;
  },
): Promise<S1Run> {
  const controllers = Object.entries(measured.cpu).filter(([name]) => !(BUS_INFRA as readonly string[]).includes(name));
  await warmUpControllers(ctx, w, `${ns}-warm`, Object.fromEntries(controllers));
  await ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const offsets = await topicMeter(kafkaBus({ brokers: ctx.e.kafkaBrokers, clientId: 'kcm-bus-bench-s1' }));
  const [meter, requests] = [cpuMeter(measured.cpu), await requestMeter(measured.services)];
  const started = performance.now();
  await ctx.kube('POST', w.path(ns), w.manifest(N));
  try {
    const run = await samplePods(ctx.kube, ns, N, started, DEADLINE_MS);
    const [rssMb, cpu] = [rssBytes(measured.pid ?? 0) / 2 ** 20, meter.read()];
    return { ...run, rssMb, cpu, requests: await requests.read(), offsets: await offsets.read() };
  } finally {
    await cleanUpNamespace(ctx.kube, ns);
  }
}

/** underUpstream runs S1 once under kube-controller-manager; `round` tells its namespace from other rounds' (the bench keeps them). */
async function underUpstream(ctx: BenchContext, w: Workload, q: Qps, round: string): Promise<S1Run> {
  const kcm = startUpstream(ctx.e, { ...q, controllers: w.controller });
  try {
    const pid = kcm.process.pid ?? 0;
    const cpu = { 'kube-controller-manager': pid, ...stackPids(ctx.e, BUS_INFRA) };
    return await scaleRun(ctx, w, `${ctx.runId}-s1-up-${w.label.trim().toLowerCase()}${q.qps}${round}`, {
      pid,
      cpu,
      services: { watcher: benchWatcherPid() },
    });
  } finally {
    await kcm.stop();
  }
}

async function underKcmBus(ctx: BenchContext, w: Workload, q: Qps, round: string): Promise<S1Run> {
  const bus = await startKcmBus(ctx.e, q);
  try {
    const pids = busPids(bus);
    const measured = { pid: pids['reconciler-rc'], cpu: { ...pids, ...stackPids(ctx.e, BUS_INFRA) }, services: pids };
    return await scaleRun(ctx, w, `${ctx.runId}-s1-bus-${w.label.trim().toLowerCase()}${q.qps}${round}`, measured);
  } finally {
    await bus.stop();
  }
}

/** Rounds are one setting's runs of each side, in the order they ran. */
export type Rounds = { readonly upstream: S1Run[]; readonly kcmBus: S1Run[] };

/** rounds runs each side `count` times at one setting, alternating, upstream first. */
export async function rounds(ctx: BenchContext, w: Workload, q: Qps, count: number): Promise<Rounds> {
  const runs: Rounds = { upstream: [], kcmBus: [] };
  for (let i = 1; i <= count; i++) {
    const [of, round] = count > 1 ? [` (round ${i} of ${count})`, i > 1 ? `-r${i}` : ''] : ['', ''];
    ctx.log(`S1 ${w.label}at ${q.qps}/${q.burst}: upstream${of}`);
    runs.upstream.push(await underUpstream(ctx, w, q, round));
    ctx.log(`S1 ${w.label}at ${q.qps}/${q.burst}: kcm-bus${of}`);
    runs.kcmBus.push(await underKcmBus(ctx, w, q, round));
  }
  return runs;
}

/** medianRun is the run whose time to N existing pods is the median (the lower middle of an even count). */
export function medianRun(runs: readonly S1Run[]): S1Run {
  const sorted = [...runs].sort((a, b) => (a.exist ?? Infinity) - (b.exist ?? Infinity));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** roundsNote lists every round's time to N existing pods when there was more than one. */
export function roundsNote(r: Rounds): string | undefined {
  if (r.upstream.length < 2) return undefined;
  const times = (runs: readonly S1Run[]): string => runs.map((x) => x.exist?.toFixed(1) ?? 'timeout').join(' / ');
  return `median of ${r.upstream.length} alternating rounds: upstream ${times(r.upstream)} s, kcm-bus ${times(r.kcmBus)} s`;
}
