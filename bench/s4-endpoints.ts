import { readyIPs } from '../test/support/endpoints.ts';
import { rcClient, rcManifest } from '../test/support/rc.ts';
import { startUpstream } from '../test/support/upstream.ts';
import { waitFor } from '../test/support/wait.ts';
import { endpointsHopRows, type Replacement } from './endpoints-hops.ts';
import { type EndpointsSide, kcmBusEndpoints, upstreamEndpoints } from './endpoints-sides.ts';
import { percentile } from './latency-hops.ts';
import { waitSteady } from './probes.ts';
import { readyNames, type ReadyCount, type ReadyToEndpoints, watchReadyToEndpoints } from './ready-to-endpoints.ts';
import type { BenchContext, Row, Scenario, ScenarioResult } from './scenario.ts';
import { cleanUpNamespace, type Qps } from './systems.ts';

const N = Number(process.env['BENCH_PODS'] ?? 1000);
const STEPS = Number(process.env['BENCH_STEPS'] ?? 100);
const SERVED = Math.min(100, N);
const FULL = Math.min(1000, N);
const QPS: Qps = { qps: 20, burst: 30 };
const APP = 's4';

/** Fill is the write run: Endpoints writes over RC 0 → N → 0, seconds from the scale-up to FULL ready addresses and from the scale-down to none. */
type Fill = { readonly writes: number; readonly fullS: number; readonly emptyS: number; readonly counts: readonly ReadyCount[] };

/** setUp makes a namespace with the Service `s4` in front of an RC `s4` of `replicas`, and watches both ends. */
async function setUp(ctx: BenchContext, ns: string, replicas: number): Promise<ReadyToEndpoints> {
  await ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  await ctx.kube('POST', `/api/v1/namespaces/${ns}/services`, { metadata: { name: APP }, spec: { selector: { app: APP }, ports: [{ port: 80 }] } });
  const times = watchReadyToEndpoints(ctx.e.kubeconfig, ns, APP);
  await ctx.kube('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, rcManifest(APP, replicas));
  return times;
}

/** tearDown stops the watches and deletes the RC, its pods and the Service (whose Endpoints the controller deletes). */
async function tearDown(ctx: BenchContext, ns: string, times: ReadyToEndpoints): Promise<void> {
  times.stop();
  await cleanUpNamespace(ctx.kube, ns);
  await ctx.kube('DELETE', `/api/v1/namespaces/${ns}/services/${APP}`).catch((err: unknown) => ctx.log(`S4: deleting ${ns}'s Service failed: ${String(err)}`));
}

const holds = (times: ReadyToEndpoints, n: number) => (): boolean => readyNames(times.endpoints()).length === n;

/** replaceOne deletes a pod listed in the Endpoints and waits until its replacement is listed and the victim is not. */
async function replaceOne(ctx: BenchContext, ns: string, times: ReadyToEndpoints): Promise<Replacement> {
  const [deleted = ''] = readyNames(times.endpoints());
  const known = new Set(times.readyAt.keys());
  await ctx.kube('DELETE', `/api/v1/namespaces/${ns}/pods/${deleted}?gracePeriodSeconds=0`);
  const pod = await waitFor(`the replacement of ${deleted} in the Endpoints`, () => [...times.readyAt.keys()].find((n) => !known.has(n) && times.listedAt.has(n)), { timeoutMs: 60_000, intervalMs: 5 });
  await waitFor(`${SERVED} ready addresses without ${deleted}`, () => holds(times, SERVED)() && !readyNames(times.endpoints()).includes(deleted), { timeoutMs: 60_000, intervalMs: 5 });
  return { deleted, pod, readyAt: times.readyAt.get(pod) ?? NaN, listedAt: times.listedAt.get(pod) ?? NaN };
}

/** latencyRun: a Service over an RC of SERVED, and STEPS pods replaced one at a time. */
async function latencyRun(ctx: BenchContext, ns: string): Promise<Replacement[]> {
  const times = await setUp(ctx, ns, SERVED);
  try {
    await waitFor(`${SERVED} ready addresses in ${ns}`, holds(times, SERVED), { timeoutMs: 300_000, intervalMs: 100 });
    const steps: Replacement[] = [];
    for (let i = 0; i < STEPS; i++) steps.push(await replaceOne(ctx, ns, times));
    return steps;
  } finally {
    await tearDown(ctx, ns, times);
  }
}

/** quiet waits until a side's write count held still for 5 s, and returns it. */
async function quiet(side: EndpointsSide): Promise<number> {
  return (await waitSteady(`${side.name}'s Endpoints writes`, { writes: side.writes }, { window: 5, tolerance: 0 }))('writes');
}

/** fillRun: a Service over an RC of 0 scaled to N, until FULL ready addresses, then to 0, until none; the side's writes meanwhile. */
async function fillRun(ctx: BenchContext, ns: string, side: EndpointsSide): Promise<Fill> {
  const times = await setUp(ctx, ns, 0);
  const rc = rcClient(ctx.kube, ns);
  try {
    await waitFor(`${ns}'s Endpoints`, () => times.endpoints() !== undefined, { timeoutMs: 60_000 });
    const before = await quiet(side);
    const up = Date.now();
    await rc.scale(APP, N);
    await waitFor(`${FULL} ready addresses in ${ns}`, holds(times, FULL), { timeoutMs: 600_000, intervalMs: 50 });
    const down = Date.now();
    await rc.scale(APP, 0);
    await waitFor(`no addresses in ${ns}`, () => readyIPs(times.endpoints()).length + readyIPs(times.endpoints(), 'notReadyAddresses').length === 0, { timeoutMs: 600_000, intervalMs: 50 });
    const writes = await quiet(side) - before;
    const full = times.counts.find((c) => c.at >= up && c.ready >= FULL)?.at ?? NaN;
    const empty = times.counts.find((c) => c.at >= down && c.ready === 0)?.at ?? NaN;
    return { writes, fullS: (full - up) / 1000, emptyS: (empty - down) / 1000, counts: times.counts };
  } finally {
    await tearDown(ctx, ns, times);
  }
}

const latencyNs = (ctx: BenchContext, side: string): string => `${ctx.runId}-s4-lat-${side}`;

/** Arm is one side's S4: the replacements, its PUTs' mean time (ms) and count during them, and the fill run. */
type Arm = { readonly latency: Replacement[]; readonly puts: { readonly meanMs: number; readonly count: number }; readonly fill: Fill };

/** arm runs both measurements with one endpoints controller; the RC's pods come from upstream's RC controller in both arms. */
async function arm(ctx: BenchContext, start: () => Promise<EndpointsSide>): Promise<Arm> {
  const side = await start();
  try {
    ctx.log(`S4 ${side.name}: ${STEPS} pod replacements behind a Service over an RC of ${SERVED}`);
    const before = await side.putTime();
    const latency = await latencyRun(ctx, latencyNs(ctx, side.name));
    const after = await side.putTime();
    const count = after.count - before.count;
    const puts = { meanMs: count > 0 ? ((after.seconds - before.seconds) / count) * 1000 : NaN, count };
    ctx.log(`S4 ${side.name}: RC 0 → ${N} → 0 behind one Service`);
    return { latency, puts, fill: await fillRun(ctx, `${ctx.runId}-s4-fill-${side.name}`, side) };
  } finally {
    await side.stop();
  }
}

async function run(ctx: BenchContext): Promise<ScenarioResult> {
  const driver = startUpstream(ctx.e, QPS);
  try {
    const upstream = await arm(ctx, () => upstreamEndpoints(ctx.e, QPS));
    const kcmBus = await arm(ctx, () => kcmBusEndpoints(ctx.e, QPS));
    const ms = (steps: readonly Replacement[]): number[] => steps.map((s) => s.listedAt - s.readyAt);
    const rows: Row[] = [
      ...[50, 99].map((p): Row => ({ scenario: `S4 pod Ready → in Endpoints, p${p}`, unit: 'ms', upstream: percentile(ms(upstream.latency), p), kcmBus: percentile(ms(kcmBus.latency), p), note: `${STEPS} pods replaced behind a Service over an RC of ${SERVED}; client watches` })),
      { scenario: 'S4 Endpoints PUT, mean over the replacements', unit: 'ms', upstream: upstream.puts.meanMs, kcmBus: kcmBus.puts.meanMs, note: `${upstream.puts.count} vs ${kcmBus.puts.count} PUTs; rest_client_request_duration_seconds, the apiserver's part of a step` },
      { scenario: `S4 Endpoints writes, RC 0 → ${N} → 0`, unit: 'writes', upstream: upstream.fill.writes, kcmBus: kcmBus.fill.writes, note: `PUT+POST in rest_client_requests_total, qps ${QPS.qps}/${QPS.burst}` },
      { scenario: `S4 ${FULL} ready addresses in Endpoints, RC 0 → ${N}`, unit: 's', upstream: upstream.fill.fullS, kcmBus: kcmBus.fill.fullS, note: `pods by upstream's RC controller in both arms; back to 0 in ${upstream.fill.emptyS.toFixed(1)} vs ${kcmBus.fill.emptyS.toFixed(1)} s` },
      ...await endpointsHopRows(ctx.e, latencyNs(ctx, 'kcm-bus'), kcmBus.latency),
    ];
    return { rows, data: { pods: N, steps: STEPS, served: SERVED, qps: QPS, upstream, kcmBus } };
  } finally {
    await driver.stop();
  }
}

/**
 * S4: Endpoints, each arm with only its endpoints controller acting on them (upstream's RC controller makes the pods
 * in both): pod Ready → in Endpoints p50/p99 over BENCH_STEPS (100) replacements; writes and time to 1000 ready
 * addresses while an RC scales 0 → BENCH_PODS (1000) → 0 at 20/30.
 */
export const scenario: Scenario = { id: 's4', title: 'Endpoints latency and writes', run };
