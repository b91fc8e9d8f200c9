/**
 * S13, idle: what each system costs with nothing to do, the way a controller manager runs most of the day. For each
 * population (BENCH_S13_PODS, "0,10000": pods owned by RCs, never scheduled, so nothing changes them), the CPU-seconds
 * per minute over BENCH_S13_SECONDS (60) once the controller synced and BENCH_S13_WARM_UP_SECONDS (30) passed: upstream kube-controller-manager (the RC
 * controller) against the watcher, writer and reconciler-rc, and the broker, registry and Redis on their own line
 * (under upstream they serve only the bench's watcher).
 */
import { BUS_INFRA, cpuMeter, stackPids, sum } from '../../lib/cpu.ts';
import { requestMeter, requestsNote, scaledRequests, type Requests } from '../../lib/kafka-requests.ts';
import { total } from '../../lib/stats.ts';
import { Population, spreadNamespaces, watchPartitions } from '../../lib/population.ts';
import type { BenchContext, Row, Scenario } from '../../lib/scenario.ts';
import { knob, numberKnob, numbersKnob } from '../../lib/knobs.ts';
import { BUS_SERVICES, benchWatcherPid, busPids, caughtUp, startKcmBus, type Qps } from '../../lib/systems.ts';
import { startUpstream } from '@kcm-bus/harness/upstream.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const SIZES_KNOB = knob('BENCH_S13_PODS', '0,10000', 'the populations measured, in pods (RCs of 50, never scheduled)');
const SECONDS_KNOB = knob('BENCH_S13_SECONDS', '60', 'the measured window, in seconds');
const WARM_UP_KNOB = knob('BENCH_S13_WARM_UP_SECONDS', '30', 'seconds waited before each window, once synced');
const SIZES = numbersKnob(SIZES_KNOB);
const WINDOW_MS = numberKnob(SECONDS_KNOB) * 1000;
/** WARM_UP_MS passes before each window: the first minute after a start (JIT, the broker's first requests) is not idle. */
const WARM_UP_MS = numberKnob(WARM_UP_KNOB) * 1000;
const PER_RC = 50;
const QPS: Qps = { qps: 20, burst: 30 };

/** Idle is one arm's window: CPU-seconds per minute by process, and the kcm-bus services' Kafka requests per minute. */
type Idle = { readonly cpu: Readonly<Record<string, number>>; readonly requests: Requests };

/**
 * idleWindow measures the processes' CPU and the Kafka requests of the kcm-bus services among them (`services`, by
 * pid) over the window after the warm-up, per minute.
 */
async function idleWindow(
  pids: Readonly<Record<string, number>>,
  services: Readonly<Record<string, number>>,
): Promise<Idle> {
  await new Promise((resolve) => setTimeout(resolve, WARM_UP_MS));
  const [meter, requests] = [cpuMeter(pids), await requestMeter(services)];
  await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
  const perMinute = (reading: Readonly<Record<string, number>>): Record<string, number> =>
    Object.fromEntries(Object.entries(reading).map(([name, s]) => [name, (s * 60_000) / WINDOW_MS]));
  return { cpu: perMinute(meter.read()), requests: scaledRequests(await requests.read(), 60_000 / WINDOW_MS) };
}

async function underUpstream(ctx: BenchContext, pop: Population): Promise<Idle> {
  const kcm = startUpstream(ctx.e, QPS);
  try {
    await waitFor('upstream to report every RC', () => pop.observed(), { timeoutMs: 600_000, intervalMs: 1000 });
    return await idleWindow(
      { 'kube-controller-manager': kcm.process.pid ?? 0, ...stackPids(ctx.e, BUS_INFRA) },
      { watcher: benchWatcherPid() },
    );
  } finally {
    await kcm.stop();
  }
}

async function underKcmBus(ctx: BenchContext, pop: Population): Promise<Idle> {
  const bus = await startKcmBus(ctx.e, QPS);
  try {
    await caughtUp(bus.reconciler, pop.pods);
    const services = busPids(bus);
    return await idleWindow({ ...services, ...stackPids(ctx.e, BUS_INFRA) }, services);
  } finally {
    await bus.stop();
  }
}

function rows(pods: number, upstream: Idle, kcmBus: Idle): Row[] {
  const each = (names: readonly string[]): string =>
    names.map((n) => `${n} ${(kcmBus.cpu[n] ?? 0).toFixed(2)}`).join(', ');
  return [
    {
      scenario: `S13 idle CPU-seconds per minute, ${pods} pods`,
      unit: 's',
      upstream: upstream.cpu['kube-controller-manager'],
      kcmBus: sum(kcmBus.cpu, BUS_SERVICES),
      note: `kube-controller-manager vs ${each(BUS_SERVICES)}`,
    },
    {
      scenario: `S13 idle broker, registry, Redis CPU-seconds per minute, ${pods} pods`,
      unit: 's',
      upstream: sum(upstream.cpu, BUS_INFRA),
      kcmBus: sum(kcmBus.cpu, BUS_INFRA),
      note: `${each(BUS_INFRA)}; under upstream they serve only the bench's watcher`,
    },
    {
      scenario: `S13 idle Kafka requests per minute, ${pods} pods`,
      unit: 'req',
      upstream: total(upstream.requests.byApi),
      kcmBus: total(kcmBus.requests.byApi),
      note: `upstream: the bench's watcher only (${requestsNote(upstream.requests.byApi, 1, 4)}); kcm-bus: ${requestsNote(kcmBus.requests.byApi, 1)}; by process: ${requestsNote(kcmBus.requests.byProcess, 1)}`,
    },
  ];
}

async function run(ctx: BenchContext): Promise<{ rows: Row[]; data: unknown }> {
  const partitions = await watchPartitions(ctx.e);
  const pop = new Population(ctx, {
    namespaces: spreadNamespaces(`${ctx.runId}-s13`, 2 * partitions, partitions),
    perRc: PER_RC,
    scheduled: false,
  });
  const out: Row[] = [];
  const data: Record<string, unknown> = {};
  try {
    for (const pods of SIZES) {
      if (pods > 0) await pop.grow(pods);
      ctx.log(`S13 idle with ${pop.pods} pods: upstream, then kcm-bus, ${WINDOW_MS / 1000} s each`);
      const upstream = await underUpstream(ctx, pop);
      const kcmBus = await underKcmBus(ctx, pop);
      out.push(...rows(pop.pods, upstream, kcmBus));
      data[String(pop.pods)] = { upstream, kcmBus };
    }
  } finally {
    await pop.cleanUp();
  }
  return { rows: out, data: { windowSeconds: WINDOW_MS / 1000, perMinute: data } };
}

/** S13: CPU at idle, with 0 and with 10,000 pods cached, side by side. */
export const scenario: Scenario = {
  id: 's13',
  name: 'idle',
  title: 'idle CPU with 0 and 10,000 pods',
  run,
  knobs: [SIZES_KNOB, SECONDS_KNOB, WARM_UP_KNOB],
  measures:
    'what each system costs with nothing to do: CPU-seconds per minute of kube-controller-manager (RC controller) against the ' +
    'watcher, writer and reconciler-rc, of the broker, registry and Redis, and Kafka requests per minute, at each population',
};
