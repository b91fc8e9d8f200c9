import { cpus } from 'node:os';
import type { Bus } from '@kcm-bus/runtime/bus/index.ts';
import { startService, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { clusterCount, Population, spreadNamespaces, watchPartitions } from '../../lib/population.ts';
import { RC_METRICS, scrape } from '../../lib/probes.ts';
import type { BenchContext, Row, Scenario } from '../../lib/scenario.ts';
import { knob, numberKnob } from '../../lib/knobs.ts';
import { reconcilerFlags, withThrowawayTopic } from '../../lib/systems.ts';

const REPLICAS = [1, 2, 4];
const PODS_KNOB = knob(
  'BENCH_S9_PODS',
  '10000',
  'pods in the cluster (RCs of 10, never scheduled) whose history the replicas replay',
);
const PODS = numberKnob(PODS_KNOB);
const PER_RC = 10;
const QUIET_MS = 2000;
const INPUTS = ['kcm.watch.pods', 'kcm.watch.replicationcontrollers', 'kcm.mutation-results'];

/**
 * Replay is one run: replicas, reconciles done, RC keys in the cluster, seconds from all joined until every
 * partition was synced and until the last reconcile, and the partitions each replica owned.
 */
type Replay = {
  readonly replicas: number;
  readonly syncs: number;
  readonly rcs: number;
  readonly caughtUp: number;
  readonly seconds: number;
  readonly owned: readonly number[];
};

/**
 * Progress is what the replicas' /metrics say together: reconciles, partitions owned and synced by each, whether
 * every queue is empty, when every partition last became synced and when the reconcile count last moved.
 */
type Progress = {
  readonly syncs: number;
  readonly owned: readonly number[];
  readonly idle: boolean;
  readonly caughtUp: number | undefined;
  readonly changed: number;
};

async function progress(
  replicas: readonly ServiceProcess[],
  partitions: number,
  before: Progress | undefined,
): Promise<Progress> {
  const pages = await Promise.all(replicas.map((r) => scrape(r.metricsUrl)));
  const now = performance.now();
  const syncs = pages.reduce((sum, m) => sum + m('controller_runtime_reconcile_total'), 0);
  const owned = pages.map((m) => m('kcm_bus_partitions', { ...RC_METRICS, state: 'synced' }));
  const synced =
    pages.every((m) => m('kcm_bus_partitions', { ...RC_METRICS, state: 'syncing' }) === 0) &&
    owned.reduce((a, b) => a + b, 0) === partitions;
  const idle = synced && pages.every((m) => m('workqueue_depth', { name: 'replicationmanager' }) === 0);
  return {
    syncs,
    owned,
    idle,
    caughtUp: synced ? (before?.caughtUp ?? now) : undefined,
    changed: before?.syncs === syncs ? before.changed : now,
  };
}

/** startReplicas starts n reconciler-rc processes side by side; when one fails, it stops the others. */
async function startReplicas(n: number, flags: readonly string[]): Promise<ServiceProcess[]> {
  const started = await Promise.allSettled(Array.from({ length: n }, () => startService('reconciler-rc', flags)));
  const up = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed === undefined) return up;
  await Promise.all(up.map((r) => r.stop()));
  throw failed.reason;
}

/**
 * replay starts `n` reconciler-rc replicas in a fresh consumer group, publishing to a throwaway topic under a fresh
 * expectations prefix, and times them from the moment all joined until every partition is synced, the queues are
 * empty, at least one reconcile per RC ran, and no reconcile ran for QUIET_MS (the end is the last reconcile).
 */
async function replay(ctx: BenchContext, n: number, topic: string, partitions: number): Promise<Replay> {
  const tag = `${ctx.runId}-s9-r${n}`;
  const flags = [
    ...reconcilerFlags(ctx.e),
    '--consumer-group',
    tag,
    '--mutations-topic',
    topic,
    '--expectations-prefix',
    `kcm-bus:${tag}`,
  ];
  const rcs = await clusterCount(ctx, 'replicationcontrollers');
  const replicas = await startReplicas(n, flags);
  try {
    const started = performance.now();
    let p: Progress | undefined;
    const done = await waitFor(
      `${n} replicas to reconcile every RC`,
      async () => {
        p = await progress(replicas, partitions, p);
        return p.idle && p.syncs >= rcs && performance.now() - p.changed >= QUIET_MS && p;
      },
      { timeoutMs: 600_000, intervalMs: 250 },
    );
    const since = (t: number): number => Math.max(0, t - started) / 1000;
    return {
      replicas: n,
      syncs: done.syncs,
      rcs,
      caughtUp: since(done.caughtUp ?? started),
      seconds: since(done.changed),
      owned: done.owned,
    };
  } finally {
    await Promise.all(replicas.map((r) => r.stop()));
  }
}

/** historyOffsets is how much a replica group replays: the offsets of its input topics (watermarks and markers too). */
async function historyOffsets(bus: Bus): Promise<number> {
  const topics = await Promise.all(INPUTS.map((t) => bus.offsets(t)));
  return topics.flat().reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
}

function row(r: Replay, offsets: number): Row {
  return {
    scenario: `S9 reconciler-rc decisions/s, ${r.replicas} replica${r.replicas > 1 ? 's' : ''}`,
    unit: '/s',
    kcmBus: r.syncs / r.seconds,
    note: `${r.syncs} syncs of ${r.rcs} RCs in ${r.seconds.toFixed(1)} s, ${offsets} offsets replayed in ${r.caughtUp.toFixed(1)} s; ${cpus().length} cores; partitions ${r.owned.join('/')}`,
  };
}

async function run(ctx: BenchContext): Promise<{ rows: Row[]; data: unknown }> {
  const partitions = await watchPartitions(ctx.e);
  if (partitions < Math.max(...REPLICAS))
    ctx.log(
      `S9: kcm.watch.pods has ${partitions} partitions, fewer than ${Math.max(...REPLICAS)} replicas: some will idle`,
    );
  const pop = new Population(ctx, {
    namespaces: spreadNamespaces(`${ctx.runId}-s9`, 2 * partitions, partitions),
    perRc: PER_RC,
    scheduled: false,
  });
  const runs: Replay[] = [];
  let offsets = 0;
  try {
    await pop.grow(PODS);
    await withThrowawayTopic(ctx, `${ctx.runId}-s9-mutations`, async (bus) => {
      offsets = await historyOffsets(bus);
      for (const n of REPLICAS) {
        ctx.log(`S9: ${n} replica(s) replay`);
        runs.push(await replay(ctx, n, `${ctx.runId}-s9-mutations`, partitions));
      }
    });
  } finally {
    await pop.cleanUp();
  }
  return {
    rows: runs.map((r) => row(r, offsets)),
    data: { pods: pop.pods, rcs: pop.rcs, perRc: PER_RC, partitions, offsets, cores: cpus().length, runs },
  };
}

/** S9: reconcile throughput of 1, 2 and 4 reconciler-rc replicas replaying the pods/RC history, mutations discarded. */
export const scenario: Scenario = {
  id: 's9',
  name: 'scale-out',
  title: `scale-out over ${PODS} pods`,
  run,
  knobs: [PODS_KNOB],
  measures:
    "reconcile throughput of 1, 2 and 4 reconciler-rc replicas replaying the pods' and RCs' history in a fresh consumer group " +
    '(mutations to a throwaway topic): decisions per second, seconds to synced',
};
