import { rcClient, rcManifest } from '@kcm-bus/harness/rc.ts';
import { startUpstream } from '@kcm-bus/harness/upstream.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { type ApiResource, apiserverPutTime, apiserverWrites } from './apiserver-metrics.ts';
import { type EndpointsController, type EndpointsSide, kcmBusEndpoints, upstreamEndpoints } from './sides.ts';
import { waitSteady } from '../probes.ts';
import type { ReadyCount, ReadyToEndpoints } from './ready-to-endpoints.ts';
import { BENCH_PODS, BENCH_STEPS, numberKnob } from '../knobs.ts';
import type { BenchContext, Knob } from '../scenario.ts';
import { cleanUpNamespace, type Qps } from '../systems.ts';

/** KNOBS are the sizes of S4 and S4S: BENCH_PODS (the fill run's RC, N) and BENCH_STEPS (replacements, STEPS). */
export const KNOBS: readonly Knob[] = [
  { ...BENCH_PODS, meaning: 'pods of the RC scaled 0 → N → 0 behind the Service (the write run)' },
  { ...BENCH_STEPS, meaning: 'pods replaced one at a time behind a Service over an RC of 100 (the latency run)' },
];
export const N = numberKnob(BENCH_PODS);
export const STEPS = numberKnob(BENCH_STEPS);
export const SERVED = Math.min(100, N);
export const FULL = Math.min(1000, N);
export const QPS: Qps = { qps: 20, burst: 30 };

/** Replacement is one latency step of S4 or S4S: a pod deleted, its replacement's Ready and its address in the Endpoints (client watches, ms). */
export type Replacement = {
  readonly deleted: string;
  readonly pod: string;
  readonly readyAt: number;
  readonly listedAt: number;
};

/**
 * Target is what an S4 scenario measures: its id (namespaces, Service and RC name), the objects' noun in logs, the
 * resource whose writes the apiserver counts, the controller compared (upstream's --controllers, the writer's label)
 * and the client watch of the Service's listing.
 */
export type Target = {
  readonly app: string;
  readonly noun: string;
  readonly resource: ApiResource;
  readonly controller: EndpointsController;
  readonly watch: (kubeconfig: string, ns: string, service: string) => ReadyToEndpoints;
};

/** Fill is the write run: writes over RC 0 → N → 0 (the apiserver's count and the side's own), seconds to FULL ready endpoints and back to none. */
export type Fill = {
  readonly writes: number;
  readonly ownWrites: number;
  readonly fullS: number;
  readonly emptyS: number;
  readonly counts: readonly ReadyCount[];
};

/** Arm is one side's run: the replacements, the apiserver's mean PUT time (ms) and PUT count during them, and the fill run. */
export type Arm = {
  readonly latency: Replacement[];
  readonly puts: { readonly meanMs: number; readonly count: number };
  readonly fill: Fill;
};

/** setUp makes a namespace with the Service `app` in front of an RC `app` of `replicas`, and watches both ends. */
async function setUp(ctx: BenchContext, t: Target, ns: string, replicas: number): Promise<ReadyToEndpoints> {
  await ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  await ctx.kube('POST', `/api/v1/namespaces/${ns}/services`, {
    metadata: { name: t.app },
    spec: { selector: { app: t.app }, ports: [{ port: 80 }] },
  });
  const times = t.watch(ctx.e.kubeconfig, ns, t.app);
  await ctx.kube('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, rcManifest(t.app, replicas));
  return times;
}

/** tearDown stops the watches and deletes the RC, its pods and the Service. */
async function tearDown(ctx: BenchContext, t: Target, ns: string, times: ReadyToEndpoints): Promise<void> {
  times.stop();
  await cleanUpNamespace(ctx.kube, ns);
  await ctx
    .kube('DELETE', `/api/v1/namespaces/${ns}/services/${t.app}`)
    .catch((err: unknown) => ctx.log(`${t.app}: deleting ${ns}'s Service failed: ${String(err)}`));
}

const ready = (times: ReadyToEndpoints): readonly string[] => times.listing()?.ready ?? [];
const holds = (times: ReadyToEndpoints, n: number) => (): boolean => ready(times).length === n;

/** replaceOne deletes a pod listed ready and waits until its replacement is listed ready and the victim is not. */
async function replaceOne(ctx: BenchContext, t: Target, ns: string, times: ReadyToEndpoints): Promise<Replacement> {
  const [deleted = ''] = ready(times);
  const known = new Set(times.readyAt.keys());
  await ctx.kube('DELETE', `/api/v1/namespaces/${ns}/pods/${deleted}?gracePeriodSeconds=0`);
  const pod = await waitFor(
    `the replacement of ${deleted} in the ${t.noun}`,
    () => [...times.readyAt.keys()].find((n) => !known.has(n) && times.listedAt.has(n)),
    { timeoutMs: 60_000, intervalMs: 5 },
  );
  await waitFor(
    `${SERVED} ready endpoints without ${deleted}`,
    () => holds(times, SERVED)() && !ready(times).includes(deleted),
    { timeoutMs: 60_000, intervalMs: 5 },
  );
  return { deleted, pod, readyAt: times.readyAt.get(pod) ?? NaN, listedAt: times.listedAt.get(pod) ?? NaN };
}

/** latencyRun: a Service over an RC of SERVED, and STEPS pods replaced one at a time. */
async function latencyRun(ctx: BenchContext, t: Target, ns: string): Promise<Replacement[]> {
  const times = await setUp(ctx, t, ns, SERVED);
  try {
    await waitFor(`${SERVED} ready endpoints in ${ns}`, holds(times, SERVED), { timeoutMs: 300_000, intervalMs: 100 });
    const steps: Replacement[] = [];
    for (let i = 0; i < STEPS; i++) steps.push(await replaceOne(ctx, t, ns, times));
    return steps;
  } finally {
    await tearDown(ctx, t, ns, times);
  }
}

/** Writes are the apiserver's count of the target's writes and the side's own count, once both held still for 5 s. */
type Writes = { readonly apiserver: number; readonly own: number };

async function quiet(ctx: BenchContext, t: Target, side: EndpointsSide): Promise<Writes> {
  const steady = await waitSteady(
    `${side.name}'s ${t.noun} writes`,
    { apiserver: () => apiserverWrites(ctx, t.resource), own: side.ownWrites },
    { window: 5, tolerance: 0 },
  );
  return { apiserver: steady('apiserver'), own: steady('own') };
}

/** fillRun: a Service over an RC of 0 scaled to N, until FULL ready endpoints, then to 0, until none; the writes meanwhile. */
async function fillRun(ctx: BenchContext, t: Target, ns: string, side: EndpointsSide): Promise<Fill> {
  const times = await setUp(ctx, t, ns, 0);
  const rc = rcClient(ctx.kube, ns);
  try {
    await waitFor(`${ns}'s ${t.noun}`, () => times.listing() !== undefined, { timeoutMs: 60_000 });
    const before = await quiet(ctx, t, side);
    const up = Date.now();
    await rc.scale(t.app, N);
    await waitFor(`${FULL} ready endpoints in ${ns}`, holds(times, FULL), { timeoutMs: 600_000, intervalMs: 50 });
    const down = Date.now();
    await rc.scale(t.app, 0);
    await waitFor(`no endpoints in ${ns}`, () => (times.listing()?.all ?? 0) === 0, {
      timeoutMs: 600_000,
      intervalMs: 50,
    });
    const after = await quiet(ctx, t, side);
    const full = times.counts.find((c) => c.at >= up && c.ready >= FULL)?.at ?? NaN;
    const empty = times.counts.find((c) => c.at >= down && c.ready === 0)?.at ?? NaN;
    return {
      writes: after.apiserver - before.apiserver,
      ownWrites: after.own - before.own,
      fullS: (full - up) / 1000,
      emptyS: (empty - down) / 1000,
      counts: times.counts,
    };
  } finally {
    await tearDown(ctx, t, ns, times);
  }
}

/** latencyNs is the namespace of a side's latency run (kcm-bus's records are read back from it for the hops). */
export const latencyNs = (ctx: BenchContext, t: Target, side: string): string => `${ctx.runId}-${t.app}-lat-${side}`;

/** arm runs both measurements with one side's controller; the RC's pods come from upstream's RC controller in both arms. */
async function arm(ctx: BenchContext, t: Target, start: () => Promise<EndpointsSide>): Promise<Arm> {
  const side = await start();
  try {
    ctx.log(`${t.app} ${side.name}: ${STEPS} pod replacements behind a Service over an RC of ${SERVED}`);
    const before = await apiserverPutTime(ctx, t.resource);
    const latency = await latencyRun(ctx, t, latencyNs(ctx, t, side.name));
    const after = await apiserverPutTime(ctx, t.resource);
    const count = after.count - before.count;
    const puts = { meanMs: count > 0 ? ((after.seconds - before.seconds) / count) * 1000 : NaN, count };
    ctx.log(`${t.app} ${side.name}: RC 0 → ${N} → 0 behind one Service`);
    return { latency, puts, fill: await fillRun(ctx, t, `${ctx.runId}-${t.app}-fill-${side.name}`, side) };
  } finally {
    await side.stop();
  }
}

/** bothArms runs the upstream arm, then the kcm-bus arm, beside an upstream RC controller of their own that makes the pods. */
export async function bothArms(
  ctx: BenchContext,
  t: Target,
): Promise<{ readonly upstream: Arm; readonly kcmBus: Arm }> {
  const driver = startUpstream(ctx.e, QPS);
  try {
    const upstream = await arm(ctx, t, () => upstreamEndpoints(ctx.e, QPS, t.controller));
    const kcmBus = await arm(ctx, t, () => kcmBusEndpoints(ctx.e, QPS, t.controller));
    return { upstream, kcmBus };
  } finally {
    await driver.stop();
  }
}

/** latencyMs are the steps' times from the pod's Ready to its listing (ms). */
export const latencyMs = (steps: readonly Replacement[]): number[] => steps.map((s) => s.listedAt - s.readyAt);
