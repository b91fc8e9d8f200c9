import { waitFor } from '@kcm-bus/harness/wait.ts';
import { rcManifest } from '@kcm-bus/harness/rc.ts';
import { endpointsRight, serviceManifest } from './endpoints.ts';
import { pollNodeHealth, type TaintSpan } from './node-health.ts';
import { watchOwnedPods, type OwnedPods } from '../../lib/owned-pods.ts';
import type { BenchContext } from '../../lib/scenario.ts';
import { knob, numberKnob } from '../../lib/knobs.ts';
import { cleanUpNamespace } from '../../lib/systems.ts';
import { scaleTo } from '../../lib/scale.ts';

/** PODS_KNOB (CHAOS_PODS) is the size of each cycle's RC; N its value. */
export const PODS_KNOB = knob('CHAOS_PODS', '200', 'pods of the RC scaled 0 → N → 0 in each cycle, at 20/30');
export const N = numberKnob(PODS_KNOB);
const DEADLINE_MS = 180_000;
const POLL_MS = 50;

/** Side is the arm a cycle ran under. */
export type Side = 'upstream' | 'kcm-bus';

/**
 * Arm is what a cycle runs under: how many times its processes exited on their own so far, the fault to inject, and
 * (a fault that runs its course in the background) what to wait for after each leg converged, before the next.
 */
export type Arm = {
  readonly side: Side;
  readonly restarts: () => number;
  readonly inject: () => Promise<void>;
  readonly recovered?: () => Promise<void>;
};

/**
 * Outcome is one fault's figures under one arm: seconds to converge after each injection (undefined: gave up),
 * over-created, lost, the processes that exited on their own, the nodes found tainted unreachable or not-ready at
 * the end of either way, the NodeNotReady events recorded about nodes during the cycle (all nodes stay healthy:
 * 0), and every node lifecycle taint seen, timed from the cycle's start like the two injections (injectedS).
 */
export type Outcome = {
  readonly fault: string;
  readonly side: Side;
  readonly upS: number | undefined;
  readonly downS: number | undefined;
  readonly overCreated: number;
  readonly lost: number;
  readonly restarts: number;
  readonly taintedNodes: number;
  readonly nodesNotReady: number;
  readonly injectedS: readonly number[];
  readonly taints: readonly TaintSpan[];
};

/** cycle scales an RC 0 → N → 0 in namespace ns under the arm, injecting its fault half way each way. */
export async function cycle(ctx: BenchContext, arm: Arm, fault: string, ns: string): Promise<Outcome> {
  await ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  await ctx.kube('POST', `/api/v1/namespaces/${ns}/services`, serviceManifest('chaos'));
  const started = performance.now();
  const since = new Date();
  const nodes = pollNodeHealth(ctx.kube, since.getTime());
  const rc = (await ctx.kube('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, rcManifest('chaos', N)))[
    'metadata'
  ] as { uid: string; resourceVersion: string };
  const pods = watchOwnedPods(ctx, ns, rc.uid, rc.resourceVersion, started);
  const restartsBefore = arm.restarts();
  const injectedS: number[] = [];
  const injected = (): void => void injectedS.push((Date.now() - since.getTime()) / 1000);
  try {
    const upS = await leg(ctx, arm, pods, ns, N, injected);
    const taintedUp = nodes.timeline.taintedNow;
    await scaleTo(ctx.kube, `/api/v1/namespaces/${ns}/replicationcontrollers`, ns, 'chaos', 0);
    const downS = await leg(ctx, arm, pods, ns, 0, injected);
    const maxLive = pods.series.reduce((max, s) => Math.max(max, s.n), 0);
    return {
      fault,
      side: arm.side,
      upS,
      downS,
      overCreated: maxLive - N,
      lost: downS === undefined ? pods.live() : 0,
      restarts: arm.restarts() - restartsBefore,
      taintedNodes: Math.max(taintedUp, nodes.timeline.taintedNow),
      nodesNotReady: await nodeNotReadyEvents(ctx, since),
      injectedS,
      taints: nodes.timeline.spans,
    };
  } finally {
    nodes.stop();
    pods.stop();
    await cleanUpNamespace(ctx.kube, ns);
  }
}

/**
 * leg waits until half of the way to `target` is done, injects the fault, and times how long the RC takes to converge:
 * its pods and status at the target, and the Service's Endpoints right for the pods the API has.
 */
async function leg(
  ctx: BenchContext,
  arm: Arm,
  pods: OwnedPods,
  ns: string,
  target: number,
  injected: () => void,
): Promise<number | undefined> {
  if (!(await reached(ctx, `${ns}: half way to ${target} pods`, () => Math.abs(pods.live() - target) <= N / 2)))
    return undefined;
  const at = performance.now();
  injected();
  await arm.inject();
  const converged = await reached(
    ctx,
    `${ns}: ${target} pods, status and Endpoints`,
    async () =>
      pods.live() === target && (await statusReplicas(ctx, ns)) === target && endpointsRight(ctx.kube, ns, 'chaos'),
  );
  const seconds = converged ? (performance.now() - at) / 1000 : undefined;
  await arm.recovered?.();
  return seconds;
}

/** reached waits for a condition until DEADLINE_MS; false (logged) when it gave up, so the run goes on to the next fault. */
function reached(ctx: BenchContext, what: string, done: () => boolean | Promise<boolean>): Promise<boolean> {
  return until(what, done).then(
    () => true,
    (err: unknown) => (ctx.log(String(err)), false),
  );
}

function until(what: string, done: () => boolean | Promise<boolean>): Promise<true> {
  return waitFor(what, async () => (await done()) || undefined, { intervalMs: POLL_MS, timeoutMs: DEADLINE_MS });
}

async function statusReplicas(ctx: BenchContext, ns: string): Promise<number | undefined> {
  return (
    (
      (await ctx.kube('GET', `/api/v1/namespaces/${ns}/replicationcontrollers/chaos`))['status'] as {
        replicas?: number;
      }
    ).replicas ?? 0
  );
}

/** nodeNotReadyEvents counts the NodeNotReady events about nodes (node lifecycle saw a Ready node go unready) since `since`. */
async function nodeNotReadyEvents(ctx: BenchContext, since: Date): Promise<number> {
  type Event = { metadata: { creationTimestamp?: string }; lastTimestamp?: string; eventTime?: string };
  const events = (
    await ctx.kube('GET', '/api/v1/events?fieldSelector=reason%3DNodeNotReady,involvedObject.kind%3DNode')
  )['items'] as Event[];
  return events.filter(
    (e) => Date.parse(e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp ?? '') >= since.getTime() - 1000,
  ).length;
}
