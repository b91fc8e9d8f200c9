import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import type { BenchContext } from '../../lib/scenario.ts';
import { BrokerFaults } from '../chaos/broker-faults.ts';
import { chosenFaults, injectInto } from '../chaos/faults.ts';
import { ChaosSystem } from '../chaos/system.ts';
import type { Window } from './figures.ts';
import { Sampler, type Readings } from './sampler.ts';
import { Workload } from './workload.ts';

/** SoakPlan is how long the soak runs and how often it changes the workload, injects a fault and samples (seconds). */
export type SoakPlan = {
  readonly minutes: number;
  readonly churnS: number;
  readonly faultS: number;
  readonly sampleS: number;
  /** settleS is how long after a fault ran its course its window lasts (readings in it are the fault's, not lag). */
  readonly settleS: number;
  readonly pairs: number;
  readonly maxPods: number;
  readonly seed: number;
};

/** FaultRun is one fault the soak injected and its window; error when its injection failed. */
export type FaultRun = { readonly name: string; readonly window: Window; readonly error?: string };

/** SoakRun is what a soak saw: the readings, the faults, the churn, and the end's checks. */
export type SoakRun = {
  readonly readings: Readings;
  readonly faults: readonly FaultRun[];
  readonly steps: number;
  readonly failedSteps: number;
  readonly restarts: number;
  readonly overCreated: Readonly<Record<string, number>>;
  /** settledS: seconds the workload took to converge at its last targets after the soak (undefined: gave up). */
  readonly settledS: number | undefined;
  /** lost are the pods still live per namespace when the scale to 0 at the end gave up (none when it converged). */
  readonly lost: Readonly<Record<string, number>>;
};

const END_DEADLINE_MS = 300_000;

/** soak runs the kcm-bus chaos system under the plan's churn and faults, sampling it, and checks the end. */
export async function soak(ctx: BenchContext, plan: SoakPlan): Promise<SoakRun> {
  const started = performance.now();
  const system = await ChaosSystem.start(ctx);
  const workload = await Workload.create(ctx, plan.pairs, plan.maxPods, plan.seed, started);
  try {
    const sampler = new Sampler(ctx, system, started);
    const end = started + plan.minutes * 60_000;
    const churn = { steps: 0, failed: 0 };
    const [faults] = await Promise.all([
      injectFaults(ctx, system, plan, started, end),
      every(plan.churnS, end, () => churnOnce(ctx, workload, churn)),
      every(plan.sampleS, end, () => sampler.sample()),
    ]);
    const settledS = await timed(ctx, 'the workload at its last targets', () => workload.converged());
    await workload.scaleAll(0);
    const drained = await timed(ctx, 'every controller at 0 pods', () => workload.converged());
    return {
      readings: sampler.readings,
      faults,
      steps: churn.steps,
      failedSteps: churn.failed,
      restarts: system.restarts,
      overCreated: workload.overCreated(),
      settledS,
      lost: drained === undefined ? workload.live() : {},
    };
  } finally {
    await workload.remove();
    await system.stop();
  }
}

/** churnOnce scales a controller at random, or every fifth time recreates a Service; a refused change is counted. */
async function churnOnce(ctx: BenchContext, w: Workload, churn: { steps: number; failed: number }): Promise<void> {
  churn.steps++;
  try {
    ctx.log(`soak: ${churn.steps % 5 === 0 ? await w.recreateService() : await w.step()}`);
  } catch (err) {
    churn.failed++;
    ctx.log(`soak: change ${churn.steps} failed (${String(err)})`);
  }
}

/** injectFaults injects the stack's faults (CHAOS_ONLY's) in turn, one every plan.faultS, until the end; each window is recorded. */
async function injectFaults(
  ctx: BenchContext,
  system: ChaosSystem,
  plan: SoakPlan,
  started: number,
  end: number,
): Promise<FaultRun[]> {
  const list = chosenFaults(ctx.stack.kafkaNodes);
  const brokers = new BrokerFaults(ctx);
  const runs: FaultRun[] = [];
  const at = (): number => (performance.now() - started) / 1000;
  for (let k = 1; started + k * plan.faultS * 1000 < end; k++) {
    await sleep(started + k * plan.faultS * 1000 - performance.now());
    const fault = list[(k - 1) % list.length]!;
    const from = at();
    ctx.log(`soak: fault ${k}: ${fault.name}`);
    const error = await injectInto(fault, system, brokers)
      .then(() => (fault.on === 'brokers' ? brokers.recovered() : undefined))
      .then(
        () => undefined,
        (err: unknown) => String(err),
      );
    runs.push({ name: fault.name, window: [from, at() + plan.settleS], ...(error ? { error } : {}) });
  }
  return runs;
}

/** every runs `act` each `seconds` until `end` (performance.now()), one at a time. */
async function every(seconds: number, end: number, act: () => Promise<void>): Promise<void> {
  for (let next = performance.now() + seconds * 1000; next < end; next += seconds * 1000) {
    await sleep(Math.max(0, next - performance.now()));
    await act();
  }
}

/** timed waits for a condition (END_DEADLINE_MS) and says how many seconds it took, undefined when it gave up. */
async function timed(ctx: BenchContext, what: string, done: () => Promise<boolean>): Promise<number | undefined> {
  const from = performance.now();
  return waitFor(what, async () => (await done().catch(() => false)) || undefined, {
    intervalMs: 500,
    timeoutMs: END_DEADLINE_MS,
  }).then(
    () => (performance.now() - from) / 1000,
    (err: unknown) => (ctx.log(String(err)), undefined),
  );
}
