/**
 * S15, a namespace's account and root CA: BENCH_S15_NAMESPACES (300) namespaces created one at a time, each once the
 * last one has both, under upstream's serviceaccount-controller and root-ca-certificate-publisher-controller and under
 * kcm-bus's (writer, reconciler-namespace; the bench's watcher). Client watches of the `default` ServiceAccounts and
 * the `kube-root-ca.crt` ConfigMaps time each step: from the namespace's create answered to each one's ADDED event.
 * The rows are p50 and p99 of each. Goal (issue 45): within 1.2× of upstream's.
 */
import { inServiceScope, startService } from '@kcm-bus/harness/processes.ts';
import { startUpstream } from '@kcm-bus/harness/upstream.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { busFlags } from '@kcm-bus/stack/endpoints.ts';
import { follow, type Followed } from '../../lib/follow.ts';
import { knob, numberKnob } from '../../lib/knobs.ts';
import type { BenchContext, Row, Scenario, ScenarioResult } from '../../lib/scenario.ts';
import { percentile } from '../../lib/stats.ts';
import { writerFlags } from '../../lib/systems.ts';

const NAMESPACES = knob(
  'BENCH_S15_NAMESPACES',
  '300',
  'namespaces created one at a time, one sample each (a p99 of 100 moved by 20 ms run to run)',
);

/** WHAT is what each namespace gets: a row label, the collection watched and the object's name. */
const WHAT = [
  { label: 'its default ServiceAccount', path: '/api/v1/serviceaccounts', name: 'default' },
  { label: 'its kube-root-ca.crt', path: '/api/v1/configmaps', name: 'kube-root-ca.crt' },
] as const;

type Named = {
  readonly metadata: { readonly name?: string; readonly namespace?: string; readonly resourceVersion?: string };
};

/** Arm is one system's samples: per WHAT, ms from each namespace's create answered to that object's ADDED event. */
type Arm = readonly number[][];

/** seenBy watches one of WHAT and notes when each namespace's object was first added. */
function seenBy(ctx: BenchContext, what: (typeof WHAT)[number], seen: Map<string, number>): Followed {
  return follow<Named>(ctx.e.kubeconfig, what.path, (type, o, at) => {
    const ns = o.metadata.namespace;
    if (type === 'ADDED' && o.metadata.name === what.name && ns !== undefined && !seen.has(ns)) seen.set(ns, at);
  });
}

/** kcmBusSteps are the steps under the writer (QPS 20/30) and reconciler-namespace, which it starts and stops. */
function kcmBusSteps(ctx: BenchContext): Promise<Arm> {
  return inServiceScope(async () => {
    await startService('writer', writerFlags(ctx.e, { qps: 20, burst: 30 }));
    await startService('reconciler-namespace', [...busFlags(ctx.e), '--root-ca-file', ctx.e.caFile]);
    return steps(ctx, 'kcm-bus');
  });
}

/** steps creates the namespaces one at a time, each once the last one has everything of WHAT, and times them. */
async function steps(ctx: BenchContext, arm: string): Promise<Arm> {
  const seen = WHAT.map(() => new Map<string, number>());
  const watches = WHAT.map((what, i) => seenBy(ctx, what, seen[i]!));
  const out: number[][] = WHAT.map(() => []);
  try {
    for (let i = 0; i < numberKnob(NAMESPACES); i++) {
      const ns = `s15-${arm}-${ctx.runId}-${i}`;
      await ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
      const created = Date.now();
      const probe = (): number[] | undefined => {
        for (const w of watches) w.check();
        const at = seen.map((s) => s.get(ns));
        return at.every((t) => t !== undefined) ? at : undefined;
      };
      const at = await waitFor(`${ns}: its account and root CA`, probe, { timeoutMs: 60_000, intervalMs: 5 });
      at.forEach((t, j) => out[j]!.push(t - created));
    }
  } finally {
    for (const w of watches) w.stop();
  }
  return out;
}

async function run(ctx: BenchContext): Promise<ScenarioResult> {
  const controllers = 'serviceaccount-controller,root-ca-certificate-publisher-controller';
  const kcm = startUpstream(ctx.e, { controllers });
  const upstream = await steps(ctx, 'upstream').finally(() => kcm.stop());
  const kcmBus = await kcmBusSteps(ctx);
  const rows = WHAT.flatMap((what, j) =>
    [50, 99].map((p): Row => ({
      scenario: `S15 namespace created → ${what.label}, p${p}`,
      unit: 'ms',
      upstream: percentile(upstream[j] ?? [], p),
      kcmBus: percentile(kcmBus[j] ?? [], p),
      note: `${kcmBus[j]?.length ?? 0} namespaces one at a time; client watches`,
    })),
  );
  return { rows, data: { upstream, kcmBus } };
}

/** scenario is S15 (the ServiceAccount controller and the root CA publisher, side by side). */
export const scenario: Scenario = {
  id: 's15',
  name: 'namespaces',
  title: "a new namespace's default ServiceAccount and root CA",
  run,
  knobs: [NAMESPACES],
  measures:
    "upstream's serviceaccount-controller and root CA publisher against reconciler-namespace's: from a namespace's " +
    'create answered to its default ServiceAccount and its kube-root-ca.crt at client watches, p50/p99 over namespaces created one at a time',
};
