import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { samplePods, svgPlot, type PodsOverTime } from './pods-over-time.ts';
import { BUS_INFRA, cpuMeter, stackPids, sum } from './cpu.ts';
import { requestMeter, requestsNote, totalRequests, type ApiCounts } from './kafka-requests.ts';
import { rssBytes } from './probes.ts';
import type { BenchContext, Row, Scenario } from './scenario.ts';
import { rcManifest } from '../test/support/rc.ts';
import { startUpstream } from '../test/support/upstream.ts';
import { BUS_SERVICES, benchWatcherPid, busPids, cleanUpNamespace, startKcmBus, type Qps } from './systems.ts';

const N = Number(process.env['BENCH_PODS'] ?? 1000);
const SETTINGS: readonly Qps[] = [{ qps: 20, burst: 30 }, { qps: 1000, burst: 1000 }];
const DEADLINE_MS = 600_000;
/**
 * FAST_ROUNDS: how many times each side runs at 1000/1000, alternating (upstream, kcm-bus, upstream, ...). One run
 * there is not a figure: single runs of the same code gave 1.10× to 1.96× upstream's time in one session. At 20/30
 * the rate limiter sets the pace, and one run each is within a few percent of any other.
 */
const FAST_ROUNDS = Number(process.env['BENCH_S1_FAST_ROUNDS'] ?? 3);

/**
 * S1Run is one system's run: pods over time, the controller's RSS (MB) once N pods ran, and the CPU-seconds of the
 * measured processes and the Kafka requests of the kcm-bus services among them from the RC's creation until N pods ran.
 */
type S1Run = PodsOverTime & { readonly rssMb: number; readonly cpu: Readonly<Record<string, number>>; readonly requests: ApiCounts };

/**
 * scaleRun creates an RC of N in a fresh namespace, samples its pods until N run, reads the controller's RSS
 * (upstream kube-controller-manager, or reconciler-rc) with the N pods still there, the CPU the processes
 * `cpu` names used meanwhile and the Kafka requests of the kcm-bus `services` (pids), then cleans up.
 */
async function scaleRun(ctx: BenchContext, ns: string, pid: number | undefined, cpu: Readonly<Record<string, number>>, services: readonly number[]): Promise<S1Run> {
  await ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const [meter, requests] = [cpuMeter(cpu), await requestMeter(services)];
  const started = performance.now();
  await ctx.kube('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, rcManifest('s1', N));
  try {
    const run = await samplePods(ctx.kube, ns, N, started, DEADLINE_MS);
    return { ...run, rssMb: rssBytes(pid ?? 0) / 2 ** 20, cpu: meter.read(), requests: await requests.read() };
  } finally {
    await cleanUpNamespace(ctx.kube, ns);
  }
}

/** underUpstream runs S1 once under kube-controller-manager; `round` tells its namespace from other rounds' (the bench keeps them). */
async function underUpstream(ctx: BenchContext, q: Qps, round: string): Promise<S1Run> {
  const kcm = startUpstream(ctx.e, q);
  try {
    const pid = kcm.process.pid ?? 0;
    return await scaleRun(ctx, `${ctx.runId}-s1-up-${q.qps}${round}`, pid, { 'kube-controller-manager': pid, ...stackPids(ctx.e, BUS_INFRA) }, [benchWatcherPid()]);
  } finally {
    await kcm.stop();
  }
}

async function underKcmBus(ctx: BenchContext, q: Qps, round: string): Promise<S1Run> {
  const bus = await startKcmBus(ctx.e, q);
  try {
    const pids = busPids(bus);
    return await scaleRun(ctx, `${ctx.runId}-s1-bus-${q.qps}${round}`, pids['reconciler-rc'], { ...pids, ...stackPids(ctx.e, BUS_INFRA) }, Object.values(pids));
  } finally {
    await bus.stop();
  }
}

/**
 * cpuRows are issue 18's rows for one setting, per 1000 pods: kube-controller-manager against the kcm-bus services
 * (with pods per CPU-second), and the broker, registry and Redis on their own line (under upstream they serve
 * only the watcher, which the bench runs throughout).
 */
function cpuRows(q: Qps, upstream: S1Run, kcmBus: S1Run): Row[] {
  const per1000 = (s: number): number => (s * 1000) / N;
  const kcm = upstream.cpu['kube-controller-manager'] ?? 0;
  const services = sum(kcmBus.cpu, BUS_SERVICES);
  const each = (r: S1Run, names: readonly string[]): string => names.map((n) => `${n} ${per1000(r.cpu[n] ?? 0).toFixed(1)}`).join(', ');
  const jit = (r: S1Run): string => per1000(r.cpu['kafka JIT'] ?? 0).toFixed(1);
  return [
    { scenario: `S1 CPU-seconds per 1000 pods, qps ${q.qps}/${q.burst}`, unit: 's', upstream: per1000(kcm), kcmBus: per1000(services),
      note: `kube-controller-manager vs ${each(kcmBus, BUS_SERVICES)}; pods per CPU-second ${(N / kcm).toFixed(0)} vs ${(N / services).toFixed(0)}` },
    { scenario: `S1 broker, registry, Redis CPU-seconds per 1000 pods, qps ${q.qps}/${q.burst}`, unit: 's', upstream: per1000(sum(upstream.cpu, BUS_INFRA)), kcmBus: per1000(sum(kcmBus.cpu, BUS_INFRA)),
      note: `${each(kcmBus, BUS_INFRA)}; kafka's JIT compiler threads ${jit(kcmBus)} of it (${jit(upstream)} under upstream); under upstream they serve only the bench's watcher` },
    { scenario: `S1 Kafka requests per 1000 pods, qps ${q.qps}/${q.burst}`, unit: 'req', upstream: per1000(totalRequests(upstream.requests)), kcmBus: per1000(totalRequests(kcmBus.requests)),
      note: `upstream: the bench's watcher only; kcm-bus: ${requestsNote(kcmBus.requests, 1000 / N)}` },
  ];
}

/** ceiling creates N pods with a plain client-node loop, 64 requests in flight, as the writer has. */
async function ceiling(ctx: BenchContext): Promise<PodsOverTime> {
  const kc = new KubeConfig();
  kc.loadFromFile(ctx.e.kubeconfig);
  const core = kc.makeApiClient(CoreV1Api);
  const ns = `${ctx.runId}-s1-plain`;
  await ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const started = performance.now();
  let next = 0;
  const sampling = samplePods(ctx.kube, ns, N, started, DEADLINE_MS);
  await Promise.all(Array.from({ length: 64 }, async () => {
    while (next < N) await core.createNamespacedPod({ namespace: ns, body: { metadata: { name: `plain-${next++}`, labels: { app: 'plain' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
  }));
  try {
    return await sampling;
  } finally {
    await cleanUpNamespace(ctx.kube, ns);
  }
}

function plot(ctx: BenchContext, q: Qps, upstream: PodsOverTime, kcmBus: PodsOverTime): void {
  mkdirSync(ctx.out, { recursive: true });
  writeFileSync(join(ctx.out, `s1-${q.qps}-${q.burst}.svg`), svgPlot(`S1: RC 0 → ${N} pods at --kube-api-qps=${q.qps} --kube-api-burst=${q.burst}`, [
    { name: 'upstream kube-controller-manager', color: '#1f77b4', series: upstream.series },
    { name: 'kcm-bus', color: '#d62728', series: kcmBus.series },
  ]));
}

/** Rounds are one setting's runs of each side, in the order they ran. */
type Rounds = { readonly upstream: S1Run[]; readonly kcmBus: S1Run[] };

/** rounds runs each side `count` times at one setting, alternating, upstream first. */
async function rounds(ctx: BenchContext, q: Qps, count: number): Promise<Rounds> {
  const runs: Rounds = { upstream: [], kcmBus: [] };
  for (let i = 1; i <= count; i++) {
    const [of, round] = count > 1 ? [` (round ${i} of ${count})`, i > 1 ? `-r${i}` : ''] : ['', ''];
    ctx.log(`S1 at ${q.qps}/${q.burst}: upstream${of}`);
    runs.upstream.push(await underUpstream(ctx, q, round));
    ctx.log(`S1 at ${q.qps}/${q.burst}: kcm-bus${of}`);
    runs.kcmBus.push(await underKcmBus(ctx, q, round));
  }
  return runs;
}

/** medianRun is the run whose time to N existing pods is the median (the lower middle of an even count). */
function medianRun(runs: readonly S1Run[]): S1Run {
  const sorted = [...runs].sort((a, b) => (a.exist ?? Infinity) - (b.exist ?? Infinity));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** roundsNote lists every round's time to N existing pods when there was more than one. */
function roundsNote(r: Rounds): string | undefined {
  if (r.upstream.length < 2) return undefined;
  const times = (runs: readonly S1Run[]): string => runs.map((x) => x.exist?.toFixed(1) ?? 'timeout').join(' / ');
  return `median of ${r.upstream.length} alternating rounds: upstream ${times(r.upstream)} s, kcm-bus ${times(r.kcmBus)} s`;
}

async function run(ctx: BenchContext): Promise<{ rows: Row[]; data: unknown }> {
  const rows: Row[] = [];
  const data: Record<string, PodsOverTime | S1Run[]> = {};
  const rss: Row[] = [];
  const cpu: Row[] = [];
  for (const q of SETTINGS) {
    const all = await rounds(ctx, q, q.qps === 1000 ? FAST_ROUNDS : 1);
    data[`upstream ${q.qps}/${q.burst}`] = all.upstream;
    data[`kcm-bus ${q.qps}/${q.burst}`] = all.kcmBus;
    const [upstream, kcmBus] = [medianRun(all.upstream), medianRun(all.kcmBus)];
    plot(ctx, q, upstream, kcmBus);
    const note = roundsNote(all);
    rows.push({ scenario: `S1 ${N} pods exist, qps ${q.qps}/${q.burst}`, unit: 's', upstream: upstream.exist, kcmBus: kcmBus.exist, ...(note ? { note } : {}) });
    rows.push({ scenario: `S1 ${N} pods Running, qps ${q.qps}/${q.burst}`, unit: 's', upstream: upstream.running, kcmBus: kcmBus.running, ...(note ? { note: 'in the runs of the median times above' } : {}) });
    rss.push({ scenario: `S1 controller RSS with ${N} pods, qps ${q.qps}/${q.burst}`, unit: 'MB', upstream: upstream.rssMb, kcmBus: kcmBus.rssMb, note: 'kube-controller-manager vs reconciler-rc' });
    cpu.push(...cpuRows(q, upstream, kcmBus));
  }
  rows.push(...rss, ...cpu);
  ctx.log('S1 ceiling: plain client-node loop');
  const plain = data['ceiling'] = await ceiling(ctx);
  rows.push({ scenario: `S1 ceiling: ${N} pods by a plain loop (64 in flight)`, unit: 's', kcmBus: plain.exist, note: `exist; Running at ${plain.running?.toFixed(1) ?? 'timeout'} s` });
  return { rows, data: { pods: N, settings: SETTINGS, runs: data } };
}

/**
 * S1: an RC scaled 0 → N (default 1000, BENCH_PODS) under both systems at 20/30 and 1000/1000 (FAST_ROUNDS each,
 * every row from each side's median run), beside the ceiling.
 */
export const scenario: Scenario = { id: 's1', title: `RC 0 -> ${N} pods`, run };
