/**
 * S10, many nodes: BENCH_S10_NODES kwok nodes (500) renewing their Leases, watched for BENCH_S10_MINUTES (10) under
 * upstream kube-controller-manager with only `--controllers=node-lifecycle-controller`, then under kcm-bus's
 * reconciler-node and writer (the watcher runs for the whole bench). Figures over each window, after the nodes were
 * schedulable: nodes ever seen not Ready (false Unknown: every node stays alive, so it must be 0 on both), the
 * controller's CPU-seconds and RSS at the end, the watcher's CPU-seconds beside, and the watch delay of the Leases
 * (Kafka timestamp of each `kcm.watch.leases` record minus the Lease's renewTime), p50 and p99.
 */
import { kwokNode } from '@kcm-bus/stack/kube-access.ts';
import { inServiceScope, startService } from '@kcm-bus/harness/processes.ts';
import { busFlags } from '@kcm-bus/stack/endpoints.ts';
import { startUpstream } from '@kcm-bus/harness/upstream.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { cpuSeconds } from '../../lib/cpu.ts';
import { percentile } from '../../lib/stats.ts';
import { inParallel } from '@kcm-bus/harness/parallel.ts';
import { rssBytes } from '../../lib/probes.ts';
import { benchWatcherPid } from '../../lib/systems.ts';
import type { BenchContext, Row, Scenario } from '../../lib/scenario.ts';
import { knob, numberKnob } from '../../lib/knobs.ts';
import { readTimed } from '../../lib/timed-records.ts';

const NODES_KNOB = knob('BENCH_S10_NODES', '500', 'kwok nodes renewing their Leases');
const MINUTES_KNOB = knob('BENCH_S10_MINUTES', '10', "each arm's window, in minutes");
const NODES = numberKnob(NODES_KNOB);
const WINDOW_MS = numberKnob(MINUTES_KNOB) * 60_000;
const SAMPLE_MS = 5000;

type NodeView = { metadata: { name: string }; status?: { conditions?: { type: string; status: string }[] } };
type LeaseRecord = { readonly object?: { readonly spec?: { readonly renewTime?: string | null } | null } | null };

/** Window is one arm's figures. */
type Window = {
  readonly notReady: number;
  readonly cpuSeconds: number;
  readonly rssMb: number;
  readonly watcherCpuSeconds: number;
  readonly leaseDelayMs: readonly number[];
};

/** watchWindow samples the nodes every SAMPLE_MS for the window, measuring `pid`'s CPU and the watcher's over it. */
async function watchWindow(ctx: BenchContext, names: ReadonlySet<string>, pid: number): Promise<Window> {
  const watcher = benchWatcherPid();
  const [cpu0, watcherCpu0, from] = [cpuSeconds(pid), cpuSeconds(watcher), Date.now()];
  const notReady = new Set<string>();
  while (Date.now() - from < WINDOW_MS) {
    const items = (await ctx.kube('GET', '/api/v1/nodes'))['items'] as NodeView[];
    for (const n of items)
      if (names.has(n.metadata.name) && n.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'True')
        notReady.add(n.metadata.name);
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
  }
  const leases = await readTimed<LeaseRecord>(ctx.e, 'kcm.watch.leases', (key) =>
    names.has(key.slice(key.indexOf('/') + 1)),
  );
  const leaseDelayMs = leases
    .filter((r) => r.timestamp >= from)
    .flatMap((r) => {
      const renew = Date.parse(r.value.object?.spec?.renewTime ?? '');
      return Number.isNaN(renew) ? [] : [r.timestamp - renew];
    });
  return {
    notReady: notReady.size,
    cpuSeconds: cpuSeconds(pid) - cpu0,
    rssMb: rssBytes(pid) / 2 ** 20,
    watcherCpuSeconds: cpuSeconds(watcher) - watcherCpu0,
    leaseDelayMs,
  };
}

async function run(ctx: BenchContext): Promise<{ rows: Row[]; data: unknown }> {
  const names = Array.from({ length: NODES }, (_, i) => `s10-${ctx.runId}-${i}`);
  await inParallel(names, (name) => ctx.kube('POST', '/api/v1/nodes', kwokNode(name)), 16);
  const upstream = startUpstream(ctx.e, { controllers: 'node-lifecycle-controller' });
  let theirs: Window;
  try {
    await schedulable(ctx, names);
    ctx.log(`s10: ${NODES} nodes schedulable; upstream window of ${WINDOW_MS / 60_000} min`);
    theirs = await watchWindow(ctx, new Set(names), upstream.process.pid ?? 0);
  } finally {
    await upstream.stop();
  }
  const ours = await kcmBusWindow(ctx, names);
  await inParallel(names, (name) => ctx.kube('DELETE', `/api/v1/nodes/${name}`).catch(() => undefined), 16);
  return {
    rows: rows(theirs, ours),
    data: { nodes: NODES, windowMinutes: WINDOW_MS / 60_000, upstream: summary(theirs), kcmBus: summary(ours) },
  };
}

/** kcmBusWindow is the window under reconciler-node and the writer, which it starts and stops (gracefully: profiles). */
function kcmBusWindow(ctx: BenchContext, names: readonly string[]): Promise<Window> {
  return inServiceScope(async () => {
    await startService('writer', [...busFlags(ctx.e), '--kubeconfig', ctx.e.kubeconfigs.writer]);
    const node = await startService('reconciler-node', busFlags(ctx.e));
    ctx.log(`s10: kcm-bus window of ${WINDOW_MS / 60_000} min`);
    return watchWindow(ctx, new Set(names), node.process.pid ?? 0);
  });
}

/** schedulable waits until node lifecycle took the not-ready taint off every node. */
async function schedulable(ctx: BenchContext, names: readonly string[]): Promise<void> {
  const wanted = new Set(names);
  await waitFor(
    `${NODES} nodes schedulable`,
    async () =>
      ((await ctx.kube('GET', '/api/v1/nodes'))['items'] as (NodeView & { spec?: { taints?: unknown[] } })[]).filter(
        (n) => wanted.has(n.metadata.name) && (n.spec?.taints ?? []).length === 0,
      ).length === NODES,
    { timeoutMs: 600_000, intervalMs: 2000 },
  );
}

function summary(w: Window): object {
  return {
    ...w,
    leaseDelayMs: undefined,
    leaseRecords: w.leaseDelayMs.length,
    leaseDelayP50: percentile(w.leaseDelayMs, 50),
    leaseDelayP99: percentile(w.leaseDelayMs, 99),
  };
}

function rows(theirs: Window, ours: Window): Row[] {
  const label = `S10 ${NODES} nodes, ${WINDOW_MS / 60_000} min:`;
  return [
    {
      scenario: `${label} nodes ever not Ready (false Unknown)`,
      unit: 'nodes',
      upstream: theirs.notReady,
      kcmBus: ours.notReady,
      note: 'every node stays alive: 0 on both is the goal',
    },
    {
      scenario: `${label} controller CPU-seconds`,
      unit: 's',
      upstream: theirs.cpuSeconds,
      kcmBus: ours.cpuSeconds,
      note: `kube-controller-manager (node lifecycle only) vs reconciler-node; the watcher beside: ${ours.watcherCpuSeconds.toFixed(1)} s`,
    },
    { scenario: `${label} controller RSS at the end`, unit: 'MB', upstream: theirs.rssMb, kcmBus: ours.rssMb },
    {
      scenario: `${label} Lease watch delay p99`,
      unit: 'ms',
      upstream: undefined,
      kcmBus: percentile(ours.leaseDelayMs, 99),
      note: `renewTime → kcm.watch.leases; p50 ${percentile(ours.leaseDelayMs, 50)} ms over ${ours.leaseDelayMs.length} records`,
    },
  ];
}

/** scenario is S10 (node lifecycle at scale, side by side). */
export const scenario: Scenario = {
  id: 's10',
  name: 'many-nodes',
  title: 'many nodes: node lifecycle over renewing Leases',
  run,
  knobs: [NODES_KNOB, MINUTES_KNOB],
  measures:
    "many live nodes watched by upstream's node lifecycle controller, then by reconciler-node: nodes ever not Ready (false Unknown, " +
    "must be 0), the controller's CPU-seconds and RSS, the Lease watch delay",
};
