/**
 * S17, quota churn: a namespace with 3 quotas (all pods; the NotBestEffort ones' compute resources; the BestEffort
 * ones) gets BENCH_S17_PODS (1000) pods, then BENCH_S17_CHANGES (200) of them, one at a time, are deleted or (every
 * fourth) turned Succeeded, under upstream's resourcequota-controller and under kcm-bus's (writer at the same QPS,
 * reconciler-namespace, the bench's watcher). Each change is timed from its request answered to the quotas' `used`
 * right as a user's watch delivers it; during the changes the system's status writes (its client's PUTs) and CPU are
 * counted. Goals (issue 46): p50 ≤ 1.0× upstream's, writes ≤ upstream's.
 */
import { inServiceScope, startService } from '@kcm-bus/harness/processes.ts';
import { podSucceeded, setQuotaHard } from '@kcm-bus/harness/quota.ts';
import { startUpstream } from '@kcm-bus/harness/upstream.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { busFlags } from '@kcm-bus/stack/endpoints.ts';
import { httpOk } from '@kcm-bus/stack/probes.ts';
import { cpuMeter, sum } from '../../lib/cpu.ts';
import { knob, numberKnob } from '../../lib/knobs.ts';
import { type Requests, requestsAt, since } from '../../lib/rest-requests.ts';
import type { BenchContext, Row, Scenario, ScenarioResult } from '../../lib/scenario.ts';
import { percentile } from '../../lib/stats.ts';
import { benchWatcherPid, cleanUpNamespace, writerFlags } from '../../lib/systems.ts';
import { podOf, QUOTAS, type QuotaWatch, watchQuotas } from './churn.ts';

const PODS = knob('BENCH_S17_PODS', '1000', 'pods created under the quotas before the changes');
const CHANGES = knob('BENCH_S17_CHANGES', '200', 'pods deleted or (every fourth) turned Succeeded, one at a time');
const QPS = { qps: 20, burst: 30 };
const RIGHT_TIMEOUT_MS = 120_000;

/** Run is one system's churn: each change's ms to `used` right, its client's PUTs and the CPU-s meanwhile. */
type Run = { readonly ms: readonly number[]; readonly puts: number; readonly cpuSeconds: number };

/** System is one arm while it runs: its client's requests so far, and the pids whose CPU counts. */
type System = {
  readonly name: string;
  readonly requests: () => Promise<Requests>;
  readonly pids: Record<string, number>;
};

/**
 * fill creates the pods, 20 at a time, then the quotas, and waits until the quotas count the pods. A quota controller
 * may count from a pod cache that lags the burst of creates and write a lower usage, which no add corrects until the
 * resync (adds do not replenish), upstream's as well as kcm-bus's: as upstream's e2e does
 * (updateResourceQuotaUntilUsageAppears), the quotas' hard is changed until the count is right.
 */
async function fill(ctx: BenchContext, ns: string, watch: QuotaWatch): Promise<void> {
  await ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const pods = numberKnob(PODS);
  for (let i = 0; i < pods; i += 20) {
    const batch = Array.from({ length: Math.min(20, pods - i) }, (_, j) => podOf(i + j));
    await Promise.all(batch.map((p) => ctx.kube('POST', `/api/v1/namespaces/${ns}/pods`, p)));
  }
  for (const q of QUOTAS) await ctx.kube('POST', `/api/v1/namespaces/${ns}/resourcequotas`, q);
  for (let poke = 1; ; poke++) {
    const counted = await watch.expect(pods, 10_000).then(
      () => true,
      () => false,
    );
    if (counted) return;
    if (poke * 10_000 > RIGHT_TIMEOUT_MS) throw new Error(`${ns}: the quotas did not count ${pods} pods`);
    for (const q of QUOTAS) await setQuotaHard(ctx.kube, ns, q.metadata.name, { pods: String(5000 + poke) });
  }
}

/** churn changes CHANGES pods one at a time and times each to `used` right. */
async function churn(ctx: BenchContext, system: System): Promise<Run> {
  const ns = `s17-${system.name}-${ctx.runId}`;
  const watch = watchQuotas(ctx.e.kubeconfig, ns);
  try {
    await fill(ctx, ns, watch);
    const [before, meter, ms] = [await system.requests(), cpuMeter(system.pids), [] as number[]];
    let counted = numberKnob(PODS);
    for (let i = 0; i < numberKnob(CHANGES); i++) {
      const path = `/api/v1/namespaces/${ns}/pods/p-${i}`;
      const right = watch.expect(--counted, RIGHT_TIMEOUT_MS);
      await (i % 4 === 3 ? podSucceeded(ctx.kube, ns, `p-${i}`) : ctx.kube('DELETE', path));
      const answered = Date.now();
      ms.push(Math.max(0, (await right) - answered));
    }
    const puts = Object.entries(since(before, await system.requests()))
      .filter(([k]) => k.startsWith('PUT '))
      .reduce((n, [, v]) => n + v, 0);
    const cpu = meter.read();
    ctx.log(
      `${system.name}: ${ms.length} changes, p50 ${percentile(ms, 50)} ms, ${puts} PUTs, CPU ${JSON.stringify(cpu)}`,
    );
    return { ms, puts, cpuSeconds: sum(cpu, Object.keys(system.pids)) };
  } finally {
    watch.stop();
    await cleanUpNamespace(ctx.kube, ns);
  }
}

/** upstreamRun runs kube-controller-manager with only its resourcequota-controller, at QPS 20/30. */
async function upstreamRun(ctx: BenchContext): Promise<Run> {
  const kcm = startUpstream(ctx.e, { ...QPS, controllers: 'resourcequota-controller', metrics: true });
  try {
    const url = kcm.metricsUrl ?? '';
    await waitFor(`kube-controller-manager's /metrics (log: ${kcm.logFile})`, () => httpOk(url), { timeoutMs: 60_000 });
    const pids = { 'kube-controller-manager': kcm.process.pid ?? 0 };
    return await churn(ctx, { name: 'upstream', requests: () => requestsAt(url), pids });
  } finally {
    await kcm.stop();
  }
}

/** kcmBusRun runs the writer (QPS 20/30) and reconciler-namespace beside the bench's watcher. */
function kcmBusRun(ctx: BenchContext): Promise<Run> {
  return inServiceScope(async () => {
    const writer = await startService('writer', writerFlags(ctx.e, QPS));
    const reconciler = await startService('reconciler-namespace', [...busFlags(ctx.e), '--root-ca-file', ctx.e.caFile]);
    const pids = {
      watcher: benchWatcherPid(),
      writer: writer.process.pid ?? 0,
      'reconciler-namespace': reconciler.process.pid ?? 0,
    };
    return churn(ctx, { name: 'kcm-bus', requests: () => requestsAt(writer.metricsUrl), pids });
  });
}

function rows(upstream: Run, kcmBus: Run): Row[] {
  const changes = `${numberKnob(CHANGES)} changes (3 of 4 deletes, 1 turned Succeeded) among ${numberKnob(PODS)} pods, QPS 20/30`;
  const at = (p: number) => ({ upstream: percentile(upstream.ms, p), kcmBus: percentile(kcmBus.ms, p) });
  return [
    {
      scenario: 'S17 quota: pod change → used right, p50',
      unit: 'ms',
      ...at(50),
      note: `${changes}; request answered → a watch delivers the status`,
    },
    { scenario: 'S17 quota: pod change → used right, p99', unit: 'ms', ...at(99), note: changes },
    {
      scenario: 'S17 quota: status writes during the changes',
      unit: 'requests',
      upstream: upstream.puts,
      kcmBus: kcmBus.puts,
      note: "the system's PUTs (rest_client_requests_total): upstream kube-controller-manager running this controller alone, kcm-bus the writer",
    },
    {
      scenario: 'S17 quota: CPU during the changes',
      unit: 'CPU-s',
      upstream: upstream.cpuSeconds,
      kcmBus: kcmBus.cpuSeconds,
      note: 'kube-controller-manager against watcher + writer + reconciler-namespace (Kafka, registry and Redis not counted)',
    },
  ];
}

async function run(ctx: BenchContext): Promise<ScenarioResult> {
  const upstream = await upstreamRun(ctx);
  const kcmBus = await kcmBusRun(ctx);
  return { rows: rows(upstream, kcmBus), data: { upstream, kcmBus } };
}

/** scenario is S17 (the resource quota controller, side by side). */
export const scenario: Scenario = {
  id: 's17',
  name: 'quota',
  title: `${numberKnob(CHANGES)} pod changes under 3 quotas among ${numberKnob(PODS)} pods`,
  run,
  knobs: [PODS, CHANGES],
  measures:
    "upstream's resourcequota-controller against reconciler-namespace's: pods deleted or turned Succeeded one at a time " +
    'under 3 quotas, ms from the change to `used` right (p50, p99), status writes and CPU meanwhile',
};
