import { KubeConfig, Watch } from '@kubernetes/client-node';
import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';
import { MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import type { RawKube } from '@kcm-bus/harness/kube.ts';
import { metricValue, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import type { BenchContext, Row, Scenario, ScenarioResult } from '../../lib/scenario.ts';
import { BENCH_STEPS, numberKnob } from '../../lib/knobs.ts';
import { HOPS, latency, RC_TOPIC, stepHops, type BusRecords, type Step, type StepHops } from './hops.ts';
import { percentile } from '../../lib/stats.ts';
import { rcManifest } from '@kcm-bus/harness/rc.ts';
import { startUpstream } from '@kcm-bus/harness/upstream.ts';
import { cleanUpNamespace, startKcmBus, type Qps } from '../../lib/systems.ts';
import { readTimed } from '../../lib/timed-records.ts';

const STEPS_KNOB = { ...BENCH_STEPS, meaning: 'single-replica raises of an RC, one latency sample each' };
const STEPS = numberKnob(STEPS_KNOB);
const RC = 's8';
const QPS: Qps = { qps: 20, burst: 30 };

type PodWatch = { readonly seen: ReadonlyMap<string, number>; readonly stop: () => void };
type WatchedObject = { readonly metadata?: { readonly name?: string; readonly resourceVersion?: string } };

/**
 * watchPods records when a client watch on the namespace first delivers each pod's ADDED. It stands in for the
 * time of the pod's POST at the apiserver, whose creationTimestamp has only 1 s resolution: it adds the same
 * watch delivery delay under both systems. A stream that ends is reopened from the last resourceVersion seen.
 */
async function watchPods(kubeconfig: string, ns: string, log: (line: string) => void): Promise<PodWatch> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const seen = new Map<string, number>();
  let rv: string | undefined;
  let abort: AbortController | undefined;
  let stopped = false;
  const onEvent = (phase: string, obj: WatchedObject): void => {
    const at = Date.now();
    rv = phase === 'ERROR' ? undefined : (obj.metadata?.resourceVersion ?? rv);
    const name = obj.metadata?.name;
    if (phase === 'ADDED' && name !== undefined && !seen.has(name)) seen.set(name, at);
  };
  const open = async (): Promise<void> => {
    abort = await new Watch(kc).watch(
      `/api/v1/namespaces/${ns}/pods`,
      { allowWatchBookmarks: true, resourceVersion: rv },
      onEvent,
      () =>
        void (
          stopped ||
          open().catch((err: unknown) => log(`S8: the pod watch of ${ns} could not be reopened: ${String(err)}`))
        ),
    );
  };
  await open();
  return { seen, stop: () => void ((stopped = true), abort?.abort()) };
}

type RcObject = {
  metadata: Record<string, unknown>;
  spec: Record<string, unknown>;
  status?: { replicas?: number; readyReplicas?: number; availableReplicas?: number; observedGeneration?: number };
};

/** scaleTo sets the RC's spec.replicas and returns the time just before the PUT (t0). */
async function scaleTo(kube: RawKube, path: string, replicas: number): Promise<number> {
  const rc = (await kube('GET', path)) as RcObject;
  // Without resourceVersion the update is unconditional (RCs allow it): it cannot conflict with a status write.
  delete rc.metadata['resourceVersion'];
  rc.spec['replicas'] = replicas;
  const t0 = Date.now();
  await kube('PUT', path, rc);
  return t0;
}

/** converged waits until the controller saw its pods: status has the spec's generation and `replicas` ready pods. */
async function converged(kube: RawKube, path: string, replicas: number): Promise<void> {
  await waitFor(
    `${path} converged at ${replicas}`,
    async () => {
      const rc = (await kube('GET', path)) as RcObject;
      const s = rc.status ?? {};
      return (
        s.observedGeneration === rc.metadata['generation'] &&
        [s.replicas, s.readyReplicas, s.availableReplicas].every((n) => (n ?? 0) === replicas)
      );
    },
    { timeoutMs: 60_000, intervalMs: 50 },
  );
}

/** steps raises the RC one replica at a time, waiting for each new pod and for the controller to converge (idle). */
async function steps(ctx: BenchContext, path: string, pods: PodWatch): Promise<Step[]> {
  const out: Step[] = [];
  for (let replicas = 1; replicas <= STEPS; replicas++) {
    const known = new Set(pods.seen.keys());
    const t0 = await scaleTo(ctx.kube, path, replicas);
    const pod = await waitFor(`pod ${replicas} of ${path}`, () => [...pods.seen.keys()].find((n) => !known.has(n)), {
      timeoutMs: 60_000,
      intervalMs: 5,
    });
    out.push({ replicas, t0, pod, seenAt: pods.seen.get(pod) ?? NaN });
    await converged(ctx.kube, path, replicas);
  }
  return out;
}

/** measure runs the steps on an RC of 0 in a fresh namespace, the pod watch started first; pods stay until the end. */
async function measure(ctx: BenchContext, ns: string): Promise<Step[]> {
  await ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const path = `/api/v1/namespaces/${ns}/replicationcontrollers/${RC}`;
  const pods = await watchPods(ctx.e.kubeconfig, ns, ctx.log);
  try {
    await ctx.kube('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, rcManifest(RC, 0));
    await converged(ctx.kube, path, 0);
    return await steps(ctx, path, pods);
  } finally {
    pods.stop();
    await cleanUpNamespace(ctx.kube, ns);
  }
}

async function busRecords(e: StackEndpoints, ns: string): Promise<BusRecords> {
  const inNs = (key: string): boolean => key.startsWith(`${ns}/`);
  return {
    rcs: await readTimed(e, RC_TOPIC, (key) => key === `${ns}/${RC}`),
    mutations: await readTimed(e, MUTATION_TOPICS.mutations, inNs),
    results: await readTimed(e, MUTATION_TOPICS.results, inNs),
  };
}

async function underUpstream(ctx: BenchContext): Promise<Step[]> {
  const kcm = startUpstream(ctx.e, QPS);
  try {
    return await measure(ctx, `${ctx.runId}-s8-up`);
  } finally {
    await kcm.stop();
  }
}

/** WriterPosts is what the writer's rest_client_request_duration_seconds says of its POSTs (pods and their events). */
type WriterPosts = { readonly count: number; readonly meanMs: number; readonly over100ms: number };

async function writerPosts(writer: ServiceProcess): Promise<WriterPosts> {
  const read = (suffix: string, labels: Readonly<Record<string, string>> = {}): Promise<number> =>
    metricValue(writer, `rest_client_request_duration_seconds${suffix}`, { verb: 'POST', ...labels });
  const [sum, count, within100ms] = await Promise.all([read('_sum'), read('_count'), read('_bucket', { le: '0.1' })]);
  return { count, meanMs: count > 0 ? (sum / count) * 1000 : NaN, over100ms: count - within100ms };
}

type BusRun = { readonly steps: Step[]; readonly hops: StepHops[]; readonly posts: WriterPosts };

async function underKcmBus(ctx: BenchContext): Promise<BusRun> {
  const bus = await startKcmBus(ctx.e, QPS);
  try {
    const ns = `${ctx.runId}-s8-bus`;
    const measured = await measure(ctx, ns);
    const records = await busRecords(ctx.e, ns);
    return { steps: measured, hops: measured.map((s) => stepHops(s, records)), posts: await writerPosts(bus.writer) };
  } finally {
    await bus.stop();
  }
}

/** hopRows are kcm-bus's per-hop p50 rows (p99 in the note) over the steps whose records were all found. */
function hopRows({ hops, posts }: BusRun): Row[] {
  const found = hops.flatMap((h) => ('hops' in h ? [h] : []));
  const missing = hops.flatMap((h) => ('missing' in h ? [`step ${h.replicas}: ${h.missing}`] : []));
  const trace =
    `${found.length}/${hops.length} steps traced, ${found.filter((h) => !h.causedByRcRecord).length} mutations name another record as their cause` +
    (missing[0] ? `; ${missing[0]}` : '');
  return HOPS.map((name, i): Row => {
    const values = found.map((h) => h.hops[i] ?? NaN);
    const extra =
      i === 0
        ? `; ${trace}`
        : name.startsWith('writer')
          ? `; writer's POSTs: mean ${posts.meanMs.toFixed(0)} ms, ${posts.over100ms}/${posts.count} over 100 ms`
          : '';
    return {
      scenario: `S8 hop ${name} p50`,
      unit: 'ms',
      kcmBus: percentile(values, 50),
      note: `p99 ${percentile(values, 99)?.toFixed(0) ?? '-'} ms${extra}`,
    };
  });
}

async function run(ctx: BenchContext): Promise<ScenarioResult> {
  ctx.log(`S8: ${STEPS} single-step changes under upstream`);
  const upstream = await underUpstream(ctx);
  ctx.log(`S8: ${STEPS} single-step changes under kcm-bus`);
  const bus = await underKcmBus(ctx);
  const [up, kb] = [upstream.map(latency), bus.steps.map(latency)];
  const rows: Row[] = [50, 99].map((p) => ({
    scenario: `S8 RC change → pod created, p${p}`,
    unit: 'ms',
    upstream: percentile(up, p),
    kcmBus: percentile(kb, p),
    note: `${STEPS} steps, end: client watch ADDED`,
  }));
  return { rows: [...rows, ...hopRows(bus)], data: { steps: STEPS, qps: QPS, hops: HOPS, upstream, kcmBus: bus } };
}

/** S8: latency at idle, RC replica change → pod created, p50/p99 over BENCH_STEPS (100) single steps, kcm-bus per hop. */
export const scenario: Scenario = {
  id: 's8',
  name: 'latency',
  title: 'latency at idle',
  run,
  knobs: [STEPS_KNOB],
  measures:
    "an idle RC raised one replica at a time at 20/30: RC change → pod created (client watch), p50/p99, and kcm-bus's per-hop p50 " +
    'from the timestamps its records carry',
};
