import { waitFor } from '@kcm-bus/harness/wait.ts';
import { cpuMeter } from '../../lib/cpu.ts';
import { knob, numberKnob } from '../../lib/knobs.ts';
import { samplePods } from '../../lib/pods-over-time.ts';
import type { BenchContext } from '../../lib/scenario.ts';
import { cleanUpNamespace } from '../../lib/systems.ts';

/** Scalable is what warmUpControllers creates: a workload's collection path and its manifest of so many replicas. */
type Scalable = {
  readonly path: (ns: string) => string;
  readonly manifest: (replicas: number) => Record<string, unknown>;
};

/**
 * WARMUP (BENCH_S1_WARM_UP_PODS): pods a workload of its own scales to, and is deleted, before each measured run, under
 * both systems, so that the run measures controllers past their first syncs: the kcm-bus services' JavaScript compiled
 * by V8's JIT, as a long-running controller manager's is (kube-controller-manager is compiled ahead of time). 0, the
 * default, measures the services as they start, the figures S1 printed before the knob.
 */
export const WARMUP = knob(
  'BENCH_S1_WARM_UP_PODS',
  '0',
  'pods a throwaway RC or ReplicaSet scales to and is deleted before each measured run, under both systems',
);
const WARMUP_PODS = numberKnob(WARMUP);
const DEADLINE_MS = 600_000;
/** QUIET_CPU_S: the controllers' CPU-seconds in one second below which the warm-up's deletes are taken as done. */
const QUIET_CPU_S = 0.1;

/**
 * warmUpControllers scales the workload to WARMUP_PODS in namespace `ns` and deletes it, then waits until its pods
 * are gone and the controllers (`controllers`: name → pid) use under QUIET_CPU_S in a second, so that none of the
 * warm-up's work is counted in the measured run. Nothing is done when the knob is 0.
 */
export async function warmUpControllers(
  ctx: BenchContext,
  w: Scalable,
  ns: string,
  controllers: Readonly<Record<string, number>>,
): Promise<void> {
  if (WARMUP_PODS <= 0) return;
  ctx.log(`S1 warm-up: ${WARMUP_PODS} pods in ${ns}, unmeasured`);
  await ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const started = performance.now();
  await ctx.kube('POST', w.path(ns), w.manifest(WARMUP_PODS));
  const run = await samplePods(ctx.kube, ns, WARMUP_PODS, started, DEADLINE_MS);
  if (run.running === undefined) throw new Error(`S1's warm-up: ${WARMUP_PODS} pods did not run in ${ns}`);
  await cleanUpNamespace(ctx.kube, ns);
  await waitFor(`the warm-up's pods in ${ns} to go`, async () => (await livePods(ctx, ns)) === 0, {
    timeoutMs: DEADLINE_MS,
    intervalMs: 500,
  });
  await waitFor('the controllers to go quiet after the warm-up', () => quietSecond(controllers), {
    timeoutMs: DEADLINE_MS,
    intervalMs: 0,
  });
}

async function livePods(ctx: BenchContext, ns: string): Promise<number> {
  const list = (await ctx.kube('GET', `/api/v1/namespaces/${ns}/pods`)) as unknown as { items: unknown[] };
  return list.items.length;
}

/** quietSecond measures the controllers' CPU over one second: true when it stayed under QUIET_CPU_S. */
async function quietSecond(controllers: Readonly<Record<string, number>>): Promise<boolean> {
  const meter = cpuMeter(controllers);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const used = Object.entries(meter.read()).filter(([name]) => name in controllers);
  return used.reduce((sum, [, s]) => sum + s, 0) < QUIET_CPU_S;
}
