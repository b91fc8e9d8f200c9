/**
 * `npm run chaos`: faults injected into a running kcm-bus, one at a time and then together, on the bench's own stack.
 * The system is a watcher, a writer, two reconciler-rc members, reconciler-endpoint and reconciler-node (two of each
 * but the watcher on a cluster-shaped stack: `npm run chaos:cluster`, whose faults are CLUSTER_FAULTS), each started
 * again when it exits on its own, as a Deployment would (system.ts). The faults: kill -9 of each kcm-bus
 * service, SIGSTOP past the group session, all three at once, then faults of the parts the bus stands on (the broker,
 * the registry, the apiserver, Redis losing its data), a 410 storm and a watcher killed between a relist's list and
 * its publication; CHAOS_ONLY=word,… picks those whose name holds a word. For each fault an RC in a fresh namespace,
 * behind a Service, is scaled 0 → N (CHAOS_PODS, 200) and back to 0 at --kube-api-qps 20/30, and the fault is
 * injected half way each way. Figures per fault:
 * - seconds from each injection until it converged: the RC's pods and status at the target, and the Service's
 *   Endpoints right for the pods the API has;
 * - pods over-created (the most live pods the RC ever controlled, from a watch, minus N), and pods lost (still live
 *   when the scale-down gave up: a lost delete);
 * - the services that exited on their own, the nodes found tainted unreachable or not-ready at the end of either
 *   way, and the NodeNotReady events recorded about nodes during the cycle (the kwok nodes stay healthy throughout).
 * - every node lifecycle taint seen during the cycle (a poll of the nodes every 250 ms): when it came and went, and
 *   how old the node's Lease renewal was then (a node marked while its renewals reached the API is a wrong mark).
 * The faults of the stack a kube-controller-manager also stands on (the apiserver restart, the 410 storm) run first
 * under upstream kube-controller-manager (upstream.ts) with the same load, so that each figure stands beside
 * upstream's. Bounded: each wait gives up after 180 s and is reported.
 */
import { BrokerFaults } from './broker-faults.ts';
import { chosenFaults, injectInto, ONLY_KNOB, type Fault, type StackFault } from './faults.ts';
import { ChaosSystem, PAUSE_S } from './system.ts';
import { UpstreamChaos } from './upstream.ts';
import { cycle, N, PODS_KNOB, type Arm, type Outcome } from './cycle.ts';
import type { BenchContext, Row, Scenario } from '../../lib/scenario.ts';

async function run(ctx: BenchContext): Promise<{ rows: Row[]; data: unknown }> {
  const faults = chosenFaults(ctx.stack.kafkaNodes);
  const outcomes = [...(await underUpstream(ctx, faults)), ...(await underKcmBus(ctx, faults))];
  console.log(`\nchaos, RC 0 → ${N} → 0 at qps 20/30, a fault half way each way\n${table(outcomes)}\n`);
  console.log(
    `node lifecycle taints (seconds from the RC's creation; Lease age when first seen)\n${taintLines(outcomes)}`,
  );
  const kcmBus = outcomes.filter((o) => o.side === 'kcm-bus');
  return {
    rows: kcmBus.map((o) =>
      rowOf(
        o,
        outcomes.find((u) => u.side === 'upstream' && u.fault === o.fault),
      ),
    ),
    data: { pods: N, pauseS: PAUSE_S, outcomes },
  };
}

/** underUpstream runs the stack faults a kube-controller-manager also stands on under upstream's (none when none is chosen). */
async function underUpstream(ctx: BenchContext, faults: readonly Fault[]): Promise<Outcome[]> {
  const shared = faults.filter((f): f is StackFault => f.on === 'stack' && f.upstreamToo);
  if (shared.length === 0) return [];
  const upstream = UpstreamChaos.start(ctx);
  try {
    return await cycles(ctx, shared, (f) => ({
      side: 'upstream',
      restarts: () => upstream.restarts,
      inject: () => f.inject(upstream.stack),
    }));
  } finally {
    await upstream.stop();
  }
}

async function underKcmBus(ctx: BenchContext, faults: readonly Fault[]): Promise<Outcome[]> {
  const system = await ChaosSystem.start(ctx);
  const brokers = new BrokerFaults(ctx);
  try {
    const arm = (f: Fault): Arm => ({
      side: 'kcm-bus',
      restarts: () => system.restarts,
      inject: () => injectInto(f, system, brokers),
      ...(f.on === 'brokers' ? { recovered: () => brokers.recovered() } : {}),
    });
    return await cycles(ctx, faults, arm);
  } finally {
    await system.stop();
  }
}

/** cycles runs one cycle per fault under the arm each fault gives, each in a namespace of its own. */
async function cycles<F extends Fault>(
  ctx: BenchContext,
  faults: readonly F[],
  armOf: (f: F) => Arm,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const [i, fault] of faults.entries()) {
    const arm = armOf(fault);
    ctx.log(`chaos (${arm.side}): ${fault.name}`);
    outcomes.push(await cycle(ctx, arm, fault.name, `${ctx.runId}-chaos-${arm.side}-${i}`));
  }
  return outcomes;
}

const seconds = (s: number | undefined): string => (s === undefined ? 'gave up' : `${s.toFixed(1)} s`);

function rowOf(o: Outcome, upstream: Outcome | undefined): Row {
  const figures = (x: Outcome): string =>
    `scale-down ${seconds(x.downS)}; over-created ${x.overCreated}, lost ${x.lost}, exited on their own ${x.restarts}, ` +
    `nodes tainted at the end ${x.taintedNodes}, taints seen ${x.taints.length}, NodeNotReady events ${x.nodesNotReady}`;
  return {
    scenario: `chaos ${o.fault}: seconds to converge, scale-up`,
    unit: 's',
    upstream: upstream?.upS,
    kcmBus: o.upS,
    note: upstream === undefined ? figures(o) : `kcm-bus: ${figures(o)}; upstream: ${figures(upstream)}`,
  };
}

function table(outcomes: readonly Outcome[]): string {
  const columns: readonly [string, number, (o: Outcome) => string][] = [
    ['fault', -55, (o) => o.fault],
    ['side', -7, (o) => o.side],
    ['converged ↑', 11, (o) => seconds(o.upS)],
    ['converged ↓', 11, (o) => seconds(o.downS)],
    ['over-created', 12, (o) => String(o.overCreated)],
    ['lost', 4, (o) => String(o.lost)],
    ['restarts', 8, (o) => String(o.restarts)],
    ['tainted at end', 14, (o) => String(o.taintedNodes)],
    ['taints seen', 11, (o) => String(o.taints.length)],
    ['NodeNotReady', 12, (o) => String(o.nodesNotReady)],
  ];
  const line = (cell: (c: (typeof columns)[number]) => string): string =>
    columns.map((c) => (c[1] < 0 ? cell(c).padEnd(-c[1]) : cell(c).padStart(c[1]))).join('  ');
  return [line((c) => c[0]), ...outcomes.map((o) => line((c) => c[2](o)))].join('\n');
}

/** taintLines lists every taint a cycle saw, with the injection times to read it against; "none" when there was none. */
function taintLines(outcomes: readonly Outcome[]): string {
  const lines = outcomes
    .filter((o) => o.taints.length > 0)
    .flatMap((o) => [
      `${o.fault} (${o.side}), injected at ${o.injectedS.map((s) => s.toFixed(1)).join(' s and ')} s:`,
      ...o.taints.map(
        (t) =>
          `  ${t.node} ${t.key} ${t.fromS.toFixed(1)}-${t.toS?.toFixed(1) ?? 'end'} s, Lease ${t.leaseAgeS?.toFixed(1) ?? '?'} s old`,
      ),
    ]);
  return lines.length === 0 ? 'none' : lines.join('\n');
}

/** chaos runs only when asked for (`npm run chaos`, or `npm run bench -- --only chaos`). */
export const scenario: Scenario = {
  id: 'chaos',
  name: 'chaos',
  title: `faults during an RC 0 -> ${N} -> 0`,
  run,
  onlyWhenAsked: true,
  knobs: [PODS_KNOB, ONLY_KNOB],
  measures:
    'faults injected half way through an RC 0 → N → 0 (kill -9 and SIGSTOP of each service, broker, registry, apiserver and ' +
    'Redis restarts, a 410 storm): seconds to converge, pods over-created and lost, restarts, node taints',
};
