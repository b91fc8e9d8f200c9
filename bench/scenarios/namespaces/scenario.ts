/**
 * S15, a namespace's default ServiceAccount: BENCH_S15_NAMESPACES (100) namespaces created one at a time, each once
 * the last one's account exists, under upstream's serviceaccount-controller (`--controllers=serviceaccount-controller`)
 * and under kcm-bus's (writer, reconciler-namespace; the bench's watcher). A client watch of every namespace's
 * `default` account times each step: from the namespace's create answered to its account's ADDED event. The rows are
 * p50 and p99. Goal (issue 45): within 1.2× of upstream's.
 */
import { startService, stopAllServices } from '@kcm-bus/harness/processes.ts';
import { startUpstream } from '@kcm-bus/harness/upstream.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { busFlags } from '@kcm-bus/stack/endpoints.ts';
import { follow } from '../../lib/follow.ts';
import { knob, numberKnob } from '../../lib/knobs.ts';
import type { BenchContext, Row, Scenario, ScenarioResult } from '../../lib/scenario.ts';
import { percentile } from '../../lib/stats.ts';
import { writerFlags } from '../../lib/systems.ts';

const NAMESPACES = knob('BENCH_S15_NAMESPACES', '100', 'namespaces created one at a time, one sample each');

type Account = {
  readonly metadata: { readonly name?: string; readonly namespace?: string; readonly resourceVersion?: string };
};

/** steps creates the namespaces one at a time and returns each one's ms from its create answered to its account seen. */
async function steps(ctx: BenchContext, arm: string): Promise<number[]> {
  const seen = new Map<string, number>();
  const watch = follow<Account>(ctx.e.kubeconfig, '/api/v1/serviceaccounts', (type, sa, at) => {
    const ns = sa.metadata.namespace;
    if (type === 'ADDED' && sa.metadata.name === 'default' && ns !== undefined && !seen.has(ns)) seen.set(ns, at);
  });
  const out: number[] = [];
  try {
    for (let i = 0; i < numberKnob(NAMESPACES); i++) {
      const ns = `s15-${arm}-${ctx.runId}-${i}`;
      await ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
      const created = Date.now();
      const at = await waitFor(`${ns}: its default ServiceAccount`, () => (watch.check(), seen.get(ns)), {
        timeoutMs: 60_000,
        intervalMs: 5,
      });
      out.push(at - created);
    }
  } finally {
    watch.stop();
  }
  return out;
}

async function run(ctx: BenchContext): Promise<ScenarioResult> {
  const kcm = startUpstream(ctx.e, { controllers: 'serviceaccount-controller' });
  const upstream = await steps(ctx, 'upstream').finally(() => kcm.stop());
  await startService('writer', writerFlags(ctx.e, { qps: 20, burst: 30 }));
  await startService('reconciler-namespace', busFlags(ctx.e));
  const kcmBus = await steps(ctx, 'kcm-bus').finally(stopAllServices);
  const rows = [50, 99].map((p): Row => ({
    scenario: `S15 namespace created → its default ServiceAccount, p${p}`,
    unit: 'ms',
    upstream: percentile(upstream, p),
    kcmBus: percentile(kcmBus, p),
    note: `${kcmBus.length} namespaces one at a time; a client watch of the accounts`,
  }));
  return { rows, data: { upstream, kcmBus } };
}

/** scenario is S15 (the ServiceAccount controller, side by side). */
export const scenario: Scenario = {
  id: 's15',
  name: 'namespaces',
  title: "a new namespace's default ServiceAccount",
  run,
  knobs: [NAMESPACES],
  measures:
    "upstream's serviceaccount-controller against reconciler-namespace's: from a namespace's create answered to its " +
    "default ServiceAccount's ADDED event at a client watch, p50/p99 over namespaces created one at a time",
};
