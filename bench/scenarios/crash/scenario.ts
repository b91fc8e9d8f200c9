/**
 * S7, a crash in the middle of S1: an RC scaled 0 → N (BENCH_PODS, default 1000) at --kube-api-qps 20/30, and at N/2
 * pods one process is SIGKILLed and at once started again: upstream kube-controller-manager (leader election on, as
 * users run it, so the new one waits for the dead leader's lease), then kcm-bus's reconciler-rc, then its writer.
 *
 * The pods are followed by a watch (not a poll): every change of the count of live pods the RC controls (ownerReference
 * with controller=true and the RC's uid, no deletionTimestamp) is a sample, so no pod goes unseen however short it lived.
 * Figures (crash-figures.ts), in seconds after the killed process exited:
 * - seconds to resume: the longest pause in pod creation from the kill until N pods (from the kill or a pod to the next
 *   new pod). It is measured as a pause rather than "first pod after the kill" because kcm-bus's writer goes on
 *   creating the pods already published to Kafka when reconciler-rc dies; the pause is the time the user sees nothing.
 * - seconds from the kill to N pods; pods over-created: the most live pods ever seen − N (must be 0), beside the number
 *   of distinct pods the RC ever controlled. The watch goes on TAIL_S after N, until the RC's status says N.
 */
import { startService, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { crashFigures, type CrashFigures } from './crash-figures.ts';
import { type OwnedPods, type Sample, watchOwnedPods } from '../../lib/owned-pods.ts';
import type { BenchContext, Row, Scenario } from '../../lib/scenario.ts';
import { BENCH_PODS, numberKnob } from '../../lib/knobs.ts';
import { rcManifest } from '@kcm-bus/harness/rc.ts';
import { startUpstream } from '@kcm-bus/harness/upstream.ts';
import { cleanUpNamespace, reconcilerFlags, startKcmBus, type Qps, writerFlags } from '../../lib/systems.ts';

const SIZE = { ...BENCH_PODS, meaning: 'pods of the RC scaled 0 → N at 20/30, a process killed at N/2' };
const N = numberKnob(SIZE);
const AT = Math.floor(N / 2);
const QPS: Qps = { qps: 20, burst: 30 };
/** POLL_MS: how often the watched count is checked against the crash point and the target. */
const POLL_MS = 20;
/** LANDING_S: creates in flight at the kill land within this; the most pods then is `baseline` (crash-figures.ts). */
const LANDING_S = 1;
/** TAIL_S: after the target is reached the watch goes on this long, so a late extra pod is still seen. */
const TAIL_S = 5;
const DEADLINE_MS = 600_000;
/** Upstream's leader election, left at its defaults (component-base v0.37.2 config/v1alpha1/defaults.go). */
const LEADER_ELECTION = {
  lease: 'kube-system/kube-controller-manager',
  leaseDurationS: 15,
  renewDeadlineS: 10,
  retryPeriodS: 2,
};
const LEASE_PATH = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager';

type RcRef = { readonly uid: string; readonly resourceVersion: string };

/** Crash kills one process of the system under test (resolving when it has exited) and restarts it. */
type Crash = { readonly kill: () => Promise<void>; readonly restart: () => Promise<void> };

/** CrashRun is one killed run: the figures, seconds from the RC to the kill and from the kill to the replacement being up. */
type CrashRun = CrashFigures & {
  readonly killedAt: number;
  readonly restartedAfter: number;
  readonly distinctPods: number;
  readonly series: readonly Sample[];
};

/** crashRun scales an RC 0 → N in a fresh namespace, crashes the system at N/2 pods and measures the recovery. */
async function crashRun(ctx: BenchContext, ns: string, crash: Crash): Promise<CrashRun> {
  await ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  try {
    const started = performance.now();
    const rc = (await ctx.kube('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, rcManifest('s7', N)))[
      'metadata'
    ] as RcRef;
    const pods = watchOwnedPods(ctx, ns, rc.uid, rc.resourceVersion, started);
    try {
      return await observe(ctx, ns, pods, crash, () => (performance.now() - started) / 1000);
    } finally {
      pods.stop();
    }
  } finally {
    await cleanUpNamespace(ctx.kube, ns);
  }
}

async function observe(
  ctx: BenchContext,
  ns: string,
  pods: OwnedPods,
  crash: Crash,
  now: () => number,
): Promise<CrashRun> {
  const until = (what: string, done: () => boolean | Promise<boolean>): Promise<true> =>
    waitFor(`${what} in ${ns}`, async () => (await done()) || undefined, {
      intervalMs: POLL_MS,
      timeoutMs: DEADLINE_MS,
    });
  await until(`${AT} pods`, () => pods.live() >= AT);
  await crash.kill();
  const killedAt = now();
  ctx.log(`${ns}: killed at ${pods.live()} pods`);
  await crash.restart();
  const restartedAfter = now() - killedAt;
  ctx.log(`${ns}: restarted ${restartedAfter.toFixed(1)} s after the kill`);
  await until(`${N} pods`, () => pods.live() >= N);
  const reachedAt = now();
  await until(
    `RC status at ${N} replicas ${TAIL_S} s on`,
    async () =>
      now() - reachedAt >= TAIL_S &&
      ((await ctx.kube('GET', `/api/v1/namespaces/${ns}/replicationcontrollers/s7`))['status'] as { replicas?: number })
        .replicas === N,
  );
  return {
    ...crashFigures(pods.series, killedAt, N, LANDING_S),
    killedAt,
    restartedAfter,
    distinctPods: pods.distinct(),
    series: pods.series,
  };
}

/**
 * upstreamRun kills kube-controller-manager (leader election on, as in production) and starts a new one at once:
 * the new one waits for the dead leader's lease to expire. Adds when it acquired the lease, after the kill.
 */
async function upstreamRun(ctx: BenchContext): Promise<CrashRun & { readonly leaseAcquiredAfter: number }> {
  await ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: 'kube-system' } }).catch((err: unknown) => {
    if (!String(err).includes(': 409 ')) throw err;
  });
  let kcm = startUpstream(ctx.e, { ...QPS, leaderElect: true });
  let killedWallClock = 0;
  try {
    const run = await crashRun(ctx, `${ctx.runId}-s7-up`, {
      kill: async () => {
        kcm.process.kill('SIGKILL');
        await kcm.exited;
        killedWallClock = Date.now();
      },
      restart: async () => {
        kcm = startUpstream(ctx.e, { ...QPS, leaderElect: true });
      },
    });
    const lease = (await ctx.kube('GET', LEASE_PATH))['spec'] as { acquireTime: string };
    return { ...run, leaseAcquiredAfter: (Date.parse(lease.acquireTime) - killedWallClock) / 1000 };
  } finally {
    await kcm.stop();
  }
}

/** busRun kills kcm-bus's reconciler-rc or writer and starts a new one with the same flags (bench/lib/systems.ts). */
async function busRun(
  ctx: BenchContext,
  victim: 'reconciler' | 'writer',
): Promise<CrashRun & { readonly logs: Readonly<Record<string, string>> }> {
  const bus = await startKcmBus(ctx.e, QPS);
  const [name, flags] =
    victim === 'reconciler' ? ['reconciler-rc', reconcilerFlags(ctx.e)] : ['writer', writerFlags(ctx.e, QPS)];
  let replacement: ServiceProcess | undefined;
  try {
    const run = await crashRun(ctx, `${ctx.runId}-s7-${victim}`, {
      kill: async () => {
        bus[victim].process.kill('SIGKILL');
        await bus[victim].exited;
      },
      restart: async () => {
        replacement = await startService(name, flags);
      },
    });
    return {
      ...run,
      logs: { writer: bus.writer.logFile, reconciler: bus.reconciler.logFile, replacement: replacement?.logFile ?? '' },
    };
  } finally {
    await replacement?.stop();
    await bus.stop();
  }
}

function rows(upstream: CrashRun, bus: Readonly<Record<'reconciler-rc' | 'writer', CrashRun>>): Row[] {
  return Object.entries(bus).flatMap(([name, run]) => [
    {
      scenario: `S7 kill ${name} at ${AT} pods: seconds to resume (longest pause)`,
      unit: 's',
      upstream: upstream.pause.seconds,
      kcmBus: run.pause.seconds,
      note: 'upstream: kube-controller-manager killed, its 15 s lease expires',
    },
    {
      scenario: `S7 kill ${name} at ${AT} pods: seconds from the kill to ${N} pods`,
      unit: 's',
      upstream: upstream.toTarget,
      kcmBus: run.toTarget,
    },
    {
      scenario: `S7 kill ${name} at ${AT} pods: pods over-created`,
      unit: 'pods',
      upstream: upstream.overCreated,
      kcmBus: run.overCreated,
      note: `pods ever controlled: upstream ${upstream.distinctPods}, kcm-bus ${run.distinctPods} (${N} expected)`,
    },
  ]);
}

async function run(ctx: BenchContext): Promise<{ rows: Row[]; data: unknown }> {
  ctx.log(`S7: kill kube-controller-manager at ${AT} of ${N} pods`);
  const upstream = await upstreamRun(ctx);
  ctx.log(`S7: kill reconciler-rc at ${AT} of ${N} pods`);
  const reconciler = await busRun(ctx, 'reconciler');
  ctx.log(`S7: kill the writer at ${AT} of ${N} pods`);
  const writer = await busRun(ctx, 'writer');
  const bus = { 'reconciler-rc': reconciler, writer };
  return {
    rows: rows(upstream, bus),
    data: {
      pods: N,
      crashAt: AT,
      qps: QPS,
      landingS: LANDING_S,
      tailS: TAIL_S,
      upstreamLeaderElection: LEADER_ELECTION,
      runs: { upstream, ...bus },
    },
  };
}

/** S7: S1 at 20/30 with a SIGKILL at N/2 pods: upstream kube-controller-manager, then kcm-bus's reconciler-rc, then its writer. */
export const scenario: Scenario = {
  id: 's7',
  name: 'crash',
  title: `crash at ${AT} of an RC 0 -> ${N}`,
  run,
  knobs: [SIZE],
  measures:
    'an RC scaled 0 → N with a SIGKILL at N/2 pods (upstream kube-controller-manager with leader election, then reconciler-rc, ' +
    'then the writer), restarted at once: seconds to resume, seconds from the kill to N pods, pods over-created',
};
