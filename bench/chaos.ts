/**
 * `npm run chaos`: faults injected into a running kcm-bus, one at a time and then together, on the bench's own stack.
 * The system is a watcher, a writer, two reconciler-rc members, reconciler-endpoint and reconciler-node, each started
 * again when it exits on its own, as a Deployment would (chaos-system.ts). The faults: kill -9 of each kcm-bus
 * service, SIGSTOP past the group session, all three at once, then faults of the parts the bus stands on (the broker,
 * the registry, the apiserver, Redis losing its data), a 410 storm and a watcher killed between a relist's list and
 * its publication; CHAOS_ONLY=word,… picks those whose name holds a word. For each fault an RC in a fresh namespace,
 * behind a Service, is scaled 0 → N (CHAOS_PODS, 200) and back to 0 at --kube-api-qps 20/30, and the fault is
 * injected half way each way. Figures per fault:
 * - seconds from each injection until it settled: the RC's pods and status at the target, and the Service's
 *   Endpoints right for the pods the API has;
 * - pods over-created (the most live pods the RC ever controlled, from a watch, minus N), and pods lost (still live
 *   when the scale-down gave up: a lost delete);
 * - the services that exited on their own, the nodes found tainted unreachable or not-ready at the end of either
 *   way, and the NodeNotReady events recorded about nodes during the cycle (the kwok nodes stay healthy throughout).
 * Bounded: each wait gives up after DEADLINE_MS and is reported.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '../test/support/wait.ts';
import { rcManifest } from '../test/support/rc.ts';
import { ChaosSystem, PAUSE_S } from './chaos-system.ts';
import { endpointsRight, serviceManifest } from './chaos-endpoints.ts';
import { watchOwnedPods, type OwnedPods } from './owned-pods.ts';
import type { BenchContext, Row, Scenario } from './scenario.ts';
import { cleanUpNamespace } from './systems.ts';

const N = Number(process.env['CHAOS_PODS'] ?? 200);
const DEADLINE_MS = 180_000;
const POLL_MS = 50;

type Fault = { readonly name: string; readonly inject: (system: ChaosSystem) => Promise<void> };

const FAULTS: readonly Fault[] = [
  { name: 'kill -9 reconciler-rc (one of two)', inject: (s) => s.kill('reconciler-rc') },
  { name: 'kill -9 writer', inject: (s) => s.kill('writer') },
  { name: 'kill -9 watcher', inject: (s) => s.kill('watcher') },
  { name: `SIGSTOP reconciler-rc ${PAUSE_S} s, SIGCONT (a zombie)`, inject: (s) => s.pause('reconciler-rc') },
  { name: `SIGSTOP writer ${PAUSE_S} s, SIGCONT`, inject: (s) => s.pause('writer') },
  { name: 'kill -9 watcher, writer, reconciler-rc at once', inject: async (s) => void (await Promise.all([s.kill('watcher'), s.kill('writer'), s.kill('reconciler-rc')])) },
  { name: 'kill -9 the Kafka broker, restart', inject: (s) => s.restartPart('kafka', { graceMs: 0 }) },
  { name: 'restart the schema registry', inject: (s) => s.restartPart('registry') },
  { name: 'restart kube-apiserver', inject: (s) => s.restartPart('kube-apiserver') },
  { name: 'kill -9 Redis, restart without its data', inject: (s) => s.restartPart('redis', { graceMs: 0, whileDown: () => forgetRedisData(s) }) },
  { name: '410 storm: etcd compacted, apiserver restarted, 3 times', inject: (s) => s.storm410(3) },
  { name: 'kill -9 watcher mid-relist (after a 410)', inject: (s) => s.crashInRelist() },
];

/** forgetRedisData deletes what Redis persisted (its append-only files and snapshot): a restart as after a disk loss. */
function forgetRedisData(s: ChaosSystem): void {
  for (const file of ['appendonlydir', 'appendonly.aof', 'dump.rdb']) rmSync(join(s.stackDir, file), { recursive: true, force: true });
}

/** chosenFaults are the faults whose name contains one of CHAOS_ONLY's comma-separated words (all when unset). */
function chosenFaults(): readonly Fault[] {
  const words = (process.env['CHAOS_ONLY'] ?? '').split(',').map((w) => w.trim()).filter(Boolean);
  return words.length === 0 ? FAULTS : FAULTS.filter((f) => words.some((w) => f.name.includes(w)));
}

/**
 * Outcome is one fault's figures: seconds to settle after each injection (undefined: gave up), over-created, lost,
 * the services that exited on their own, the nodes found tainted unreachable or not-ready at the end of either way,
 * and the NodeNotReady events node lifecycle recorded about nodes during the cycle (all nodes stay healthy: 0).
 */
type Outcome = {
  readonly fault: string; readonly upS: number | undefined; readonly downS: number | undefined;
  readonly overCreated: number; readonly lost: number; readonly restarts: number; readonly taintedNodes: number; readonly nodesNotReady: number;
};

async function run(ctx: BenchContext): Promise<{ rows: Row[]; data: unknown }> {
  const system = await ChaosSystem.start(ctx);
  const outcomes: Outcome[] = [];
  try {
    for (const [i, fault] of chosenFaults().entries()) {
      ctx.log(`chaos: ${fault.name}`);
      outcomes.push(await cycle(ctx, system, fault, `${ctx.runId}-chaos-${i}`));
    }
  } finally {
    await system.stop();
  }
  console.log(`\nchaos, RC 0 → ${N} → 0 at qps 20/30, a fault half way each way\n${table(outcomes)}`);
  return { rows: outcomes.map(rowOf), data: { pods: N, pauseS: PAUSE_S, outcomes } };
}

/** cycle scales an RC 0 → N → 0 in namespace ns, injecting the fault half way each way. */
async function cycle(ctx: BenchContext, system: ChaosSystem, fault: Fault, ns: string): Promise<Outcome> {
  await ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  await ctx.kube('POST', `/api/v1/namespaces/${ns}/services`, serviceManifest('chaos'));
  const started = performance.now();
  const since = new Date();
  const rc = (await ctx.kube('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, rcManifest('chaos', N)))['metadata'] as { uid: string; resourceVersion: string };
  const pods = watchOwnedPods(ctx, ns, rc.uid, rc.resourceVersion, started);
  const restartsBefore = system.restarts;
  try {
    const upS = await leg(ctx, system, fault, pods, ns, N);
    const taintedUp = await taintedNodes(ctx);
    await scale(ctx, ns, 0);
    const downS = await leg(ctx, system, fault, pods, ns, 0);
    const maxLive = pods.series.reduce((max, s) => Math.max(max, s.n), 0);
    return { fault: fault.name, upS, downS, overCreated: maxLive - N, lost: downS === undefined ? pods.live() : 0, restarts: system.restarts - restartsBefore,
      taintedNodes: Math.max(taintedUp, await taintedNodes(ctx)), nodesNotReady: await nodeNotReadyEvents(ctx, since) };
  } finally {
    pods.stop();
    await cleanUpNamespace(ctx.kube, ns);
  }
}

/**
 * leg waits until half of the way to `target` is done, injects the fault, and times how long the RC takes to settle:
 * its pods and status at the target, and the Service's Endpoints right for the pods the API has.
 */
async function leg(ctx: BenchContext, system: ChaosSystem, fault: Fault, pods: OwnedPods, ns: string, target: number): Promise<number | undefined> {
  if (!await reached(ctx, `${ns}: half way to ${target} pods`, () => Math.abs(pods.live() - target) <= N / 2)) return undefined;
  const injected = performance.now();
  await fault.inject(system);
  const settled = await reached(ctx, `${ns}: ${target} pods, status and Endpoints`, async () => pods.live() === target
    && (await statusReplicas(ctx, ns)) === target && endpointsRight(ctx.kube, ns, 'chaos'));
  return settled ? (performance.now() - injected) / 1000 : undefined;
}

/** reached waits for a condition until DEADLINE_MS; false (logged) when it gave up, so the run goes on to the next fault. */
function reached(ctx: BenchContext, what: string, done: () => boolean | Promise<boolean>): Promise<boolean> {
  return until(what, done).then(() => true, (err: unknown) => (ctx.log(String(err)), false));
}

function until(what: string, done: () => boolean | Promise<boolean>): Promise<true> {
  return waitFor(what, async () => (await done()) || undefined, { intervalMs: POLL_MS, timeoutMs: DEADLINE_MS });
}

async function statusReplicas(ctx: BenchContext, ns: string): Promise<number | undefined> {
  return ((await ctx.kube('GET', `/api/v1/namespaces/${ns}/replicationcontrollers/chaos`))['status'] as { replicas?: number }).replicas ?? 0;
}

async function scale(ctx: BenchContext, ns: string, replicas: number): Promise<void> {
  const path = `/api/v1/namespaces/${ns}/replicationcontrollers/chaos`;
  const rc = await ctx.kube('GET', path);
  await ctx.kube('PUT', path, { ...rc, spec: { ...(rc['spec'] as object), replicas } });
}

/** NODE_TAINTS are the taints node lifecycle puts on a node it found unhealthy; the bench's kwok nodes never are. */
const NODE_TAINTS = new Set(['node.kubernetes.io/unreachable', 'node.kubernetes.io/not-ready']);

async function taintedNodes(ctx: BenchContext): Promise<number> {
  const nodes = (await ctx.kube('GET', '/api/v1/nodes'))['items'] as { spec?: { taints?: { key: string }[] } }[];
  return nodes.filter((n) => (n.spec?.taints ?? []).some((t) => NODE_TAINTS.has(t.key))).length;
}

/** nodeNotReadyEvents counts the NodeNotReady events about nodes (node lifecycle saw a Ready node go unready) since `since`. */
async function nodeNotReadyEvents(ctx: BenchContext, since: Date): Promise<number> {
  type Event = { metadata: { creationTimestamp?: string }; lastTimestamp?: string; eventTime?: string };
  const events = (await ctx.kube('GET', '/api/v1/events?fieldSelector=reason%3DNodeNotReady,involvedObject.kind%3DNode'))['items'] as Event[];
  return events.filter((e) => Date.parse(e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp ?? '') >= since.getTime() - 1000).length;
}

function rowOf(o: Outcome): Row {
  return { scenario: `chaos ${o.fault}: seconds to settle, scale-up`, unit: 's', kcmBus: o.upS,
    note: `scale-down ${o.downS?.toFixed(1) ?? 'gave up'} s; over-created ${o.overCreated}, lost ${o.lost}, services that exited on their own ${o.restarts}, nodes tainted ${o.taintedNodes}, NodeNotReady events ${o.nodesNotReady}` };
}

function table(outcomes: readonly Outcome[]): string {
  const seconds = (s: number | undefined): string => s === undefined ? 'gave up' : `${s.toFixed(1)} s`;
  const lines = outcomes.map((o) => [o.fault.padEnd(52), seconds(o.upS).padStart(9), seconds(o.downS).padStart(9), String(o.overCreated).padStart(12),
    String(o.lost).padStart(5), String(o.restarts).padStart(8), String(o.taintedNodes).padStart(13), String(o.nodesNotReady).padStart(14)].join('  '));
  const header = ['fault'.padEnd(52), 'settled ↑'.padStart(9), 'settled ↓'.padStart(9), 'over-created'.padStart(12), 'lost'.padStart(5), 'restarts'.padStart(8),
    'nodes tainted'.padStart(13), 'node NotReady'.padStart(14)];
  return [header.join('  '), ...lines].join('\n');
}

/** chaos runs only when asked for (`npm run chaos`, or `npm run bench -- --only chaos`). */
export const scenario: Scenario = { id: 'chaos', title: `faults during an RC 0 -> ${N} -> 0`, run, onlyWhenAsked: true };
