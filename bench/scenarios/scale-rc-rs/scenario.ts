import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { samplePods, svgPlot, type PodsOverTime } from '../../lib/pods-over-time.ts';
import { BUS_INFRA, sum } from '../../lib/cpu.ts';
import { requestsNote } from '../../lib/kafka-requests.ts';
import { total } from '../../lib/stats.ts';
import type { BenchContext, Row, Scenario } from '../../lib/scenario.ts';
import { KINDS, medianRun, N, rounds, roundsNote, SIZE, type S1Run, type Workload, WORKLOADS } from './scale-runs.ts';
import { knob, numberKnob } from '../../lib/knobs.ts';
import { WARMUP } from './warm-up.ts';
import { BUS_SERVICES, cleanUpNamespace, type Qps } from '../../lib/systems.ts';

const SETTINGS: readonly Qps[] = [
  { qps: 20, burst: 30 },
  { qps: 1000, burst: 1000 },
];
/**
 * FAST_ROUNDS: how many times each side runs at 1000/1000, alternating (upstream, kcm-bus, upstream, ...). One run
 * there is not a figure: single runs of the same code gave 1.10× to 1.96× upstream's time in one session. At 20/30
 * the rate limiter sets the pace, and one run each is within a few percent of any other.
 */
const ROUNDS = knob(
  'BENCH_S1_FAST_ROUNDS',
  '3',
  'rounds of each side at 1000/1000, alternating; each row is from the median run',
);
const FAST_ROUNDS = numberKnob(ROUNDS);
const DEADLINE_MS = 600_000;

/** systemShares are the named processes' shares of their CPU time spent in the kernel (stime), as `name 7 %`. */
function systemShares(r: S1Run, names: readonly string[]): string {
  const share = (n: string): string => `${((100 * (r.cpu[`${n} system`] ?? 0)) / (r.cpu[n] || 1)).toFixed(0)} %`;
  return names.map((n) => `${n} ${share(n)}`).join(', ');
}

/**
 * cpuRows are the CPU rows of one workload at one setting, per 1000 pods: kube-controller-manager against the kcm-bus services
 * (with pods per CPU-second), and the broker, registry and Redis on their own line (under upstream they serve
 * only the watcher, which the bench runs throughout).
 */
function cpuRows(w: Workload, q: Qps, upstream: S1Run, kcmBus: S1Run): Row[] {
  const per1000 = (s: number): number => (s * 1000) / N;
  const kcm = upstream.cpu['kube-controller-manager'] ?? 0;
  const services = sum(kcmBus.cpu, BUS_SERVICES);
  const each = (r: S1Run, names: readonly string[]): string =>
    names.map((n) => `${n} ${per1000(r.cpu[n] ?? 0).toFixed(1)}`).join(', ');
  const jit = (r: S1Run): string => per1000(r.cpu['kafka JIT'] ?? 0).toFixed(1);
  return [
    {
      scenario: `S1 ${w.label}CPU-seconds per 1000 pods, qps ${q.qps}/${q.burst}`,
      unit: 's',
      upstream: per1000(kcm),
      kcmBus: per1000(services),
      note: `kube-controller-manager vs ${each(kcmBus, BUS_SERVICES)}; pods per CPU-second ${(N / kcm).toFixed(0)} vs ${(N / services).toFixed(0)}; in the kernel: ${systemShares(upstream, ['kube-controller-manager'])} vs ${systemShares(kcmBus, BUS_SERVICES)}`,
    },
    {
      scenario: `S1 ${w.label}broker, registry, Redis CPU-seconds per 1000 pods, qps ${q.qps}/${q.burst}`,
      unit: 's',
      upstream: per1000(sum(upstream.cpu, BUS_INFRA)),
      kcmBus: per1000(sum(kcmBus.cpu, BUS_INFRA)),
      note: `${each(kcmBus, BUS_INFRA)}; kafka's JIT compiler threads ${jit(kcmBus)} of it (${jit(upstream)} under upstream); under upstream they serve only the bench's watcher`,
    },
    {
      scenario: `S1 ${w.label}Kafka requests per 1000 pods, qps ${q.qps}/${q.burst}`,
      unit: 'req',
      upstream: per1000(total(upstream.requests.byApi)),
      kcmBus: per1000(total(kcmBus.requests.byApi)),
      note: `upstream: the bench's watcher only; kcm-bus: ${requestsNote(kcmBus.requests.byApi, 1000 / N)}; by process: ${requestsNote(kcmBus.requests.byProcess, 1000 / N)}`,
    },
    {
      scenario: `S1 ${w.label}records per 1000 pods, qps ${q.qps}/${q.burst}`,
      unit: 'rec',
      upstream: per1000(total(upstream.offsets)),
      kcmBus: per1000(total(kcmBus.offsets)),
      note: `offsets the kcm.* topics gained, transaction markers among them; upstream: the bench's watcher only; kcm-bus by topic: ${requestsNote(kcmBus.offsets, 1000 / N, 8)}`,
    },
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
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < N)
        await core.createNamespacedPod({
          namespace: ns,
          body: {
            metadata: { name: `plain-${next++}`, labels: { app: 'plain' } },
            spec: { containers: [{ name: 'c', image: 'nginx' }] },
          },
        });
    }),
  );
  try {
    return await sampling;
  } finally {
    await cleanUpNamespace(ctx.kube, ns);
  }
}

function plot(ctx: BenchContext, w: Workload, q: Qps, upstream: PodsOverTime, kcmBus: PodsOverTime): void {
  mkdirSync(ctx.out, { recursive: true });
  const kind = w.label.trim().toLowerCase() || 'rc';
  writeFileSync(
    join(ctx.out, `s1-${kind}-${q.qps}-${q.burst}.svg`),
    svgPlot(`S1: ${kind.toUpperCase()} 0 → ${N} pods at --kube-api-qps=${q.qps} --kube-api-burst=${q.burst}`, [
      { name: 'upstream kube-controller-manager', color: '#1f77b4', series: upstream.series },
      { name: 'kcm-bus', color: '#d62728', series: kcmBus.series },
    ]),
  );
}

/** workloadRows runs one workload at every setting and gives its rows: times, controller RSS, CPU and Kafka requests. */
async function workloadRows(ctx: BenchContext, w: Workload, data: Record<string, unknown>): Promise<Row[]> {
  const times: Row[] = [];
  const rss: Row[] = [];
  const cpu: Row[] = [];
  for (const q of SETTINGS) {
    const all = await rounds(ctx, w, q, q.qps === 1000 ? FAST_ROUNDS : 1);
    data[`upstream ${w.label}${q.qps}/${q.burst}`] = all.upstream;
    data[`kcm-bus ${w.label}${q.qps}/${q.burst}`] = all.kcmBus;
    const [upstream, kcmBus] = [medianRun(all.upstream), medianRun(all.kcmBus)];
    plot(ctx, w, q, upstream, kcmBus);
    const note = roundsNote(all);
    times.push({
      scenario: `S1 ${w.label}${N} pods exist, qps ${q.qps}/${q.burst}`,
      unit: 's',
      upstream: upstream.exist,
      kcmBus: kcmBus.exist,
      ...(note ? { note } : {}),
    });
    times.push({
      scenario: `S1 ${w.label}${N} pods Running, qps ${q.qps}/${q.burst}`,
      unit: 's',
      upstream: upstream.running,
      kcmBus: kcmBus.running,
      ...(note ? { note: 'in the runs of the median times above' } : {}),
    });
    rss.push({
      scenario: `S1 ${w.label}controller RSS with ${N} pods, qps ${q.qps}/${q.burst}`,
      unit: 'MB',
      upstream: upstream.rssMb,
      kcmBus: kcmBus.rssMb,
      note: 'kube-controller-manager vs reconciler-rc',
    });
    cpu.push(...cpuRows(w, q, upstream, kcmBus));
  }
  return [...times, ...rss, ...cpu];
}

async function run(ctx: BenchContext): Promise<{ rows: Row[]; data: unknown }> {
  const data: Record<string, unknown> = {};
  const rows: Row[] = [];
  for (const w of WORKLOADS) rows.push(...(await workloadRows(ctx, w, data)));
  ctx.log('S1 ceiling: plain client-node loop');
  const plain = await ceiling(ctx);
  data['ceiling'] = plain;
  rows.push({
    scenario: `S1 ceiling: ${N} pods by a plain loop (64 in flight)`,
    unit: 's',
    kcmBus: plain.exist,
    note: `exist; Running at ${plain.running?.toFixed(1) ?? 'timeout'} s`,
  });
  return { rows, data: { pods: N, settings: SETTINGS, runs: data } };
}

/**
 * S1: an RC and a ReplicaSet (BENCH_S1_KINDS) scaled 0 → N (default 1000, BENCH_PODS) under both systems at 20/30 and
 * 1000/1000 (FAST_ROUNDS each, every row from each side's median run), beside the ceiling. The RS rows stand beside
 * upstream's replicaset-controller, the RC rows beside its replicationcontroller-controller.
 */
export const scenario: Scenario = {
  id: 's1',
  name: 'scale-rc-rs',
  title: `RC and ReplicaSet 0 -> ${N} pods`,
  run,
  knobs: [SIZE, KINDS, ROUNDS, WARMUP],
  measures:
    'an RC and a ReplicaSet scaled 0 → N pods at client QPS 20/30 and 1000/1000: seconds until the pods exist and run, ' +
    "the controller's RSS, CPU-seconds and Kafka requests per 1000 pods; beside a plain client-node loop creating the pods (the ceiling)",
};
