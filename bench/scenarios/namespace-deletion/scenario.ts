/**
 * S16, a namespace of 1000 objects deleted: each round a namespace is filled with BENCH_S16_OBJECTS (1000) objects
 * spread evenly over 10 kinds (pending pods among them) and deleted, under upstream's namespace-controller and under
 * kcm-bus's (writer, reconciler-namespace; the bench's watcher), BENCH_S16_ROUNDS (3) rounds each. A round measures
 * the seconds from the namespace's DELETE answered to the namespace gone (GET 404), and the API requests the system
 * made in between (its rest_client_requests_total, before and after). The rows are the medians over the rounds.
 * Goal (issue 45): ≤ 1.0× upstream's time and requests.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { inServiceScope, startService } from '@kcm-bus/harness/processes.ts';
import { startUpstream } from '@kcm-bus/harness/upstream.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { busFlags } from '@kcm-bus/stack/endpoints.ts';
import { httpOk } from '@kcm-bus/stack/probes.ts';
import { fill } from './content.ts';
import { type Requests, requestsAt, since } from '../../lib/rest-requests.ts';
import { knob, numberKnob } from '../../lib/knobs.ts';
import type { BenchContext, Row, Scenario, ScenarioResult } from '../../lib/scenario.ts';
import { percentile, total } from '../../lib/stats.ts';
import { writerFlags } from '../../lib/systems.ts';

const OBJECTS = knob(
  'BENCH_S16_OBJECTS',
  '1000',
  "objects in each deleted namespace, evenly over 10 kinds (a tenth are Services: the stack's service range holds 253)",
);
const ROUNDS = knob('BENCH_S16_ROUNDS', '3', 'namespaces deleted per system, one sample each');

/** GONE_TIMEOUT_MS is how long a deleted namespace may take to go; POLL_MS how often it is looked up meanwhile. */
const GONE_TIMEOUT_MS = 300_000;
const POLL_MS = 100;

/** Sample is one round: seconds from the DELETE answered to the namespace gone, and the system's requests meanwhile. */
type Sample = {
  readonly seconds: number;
  readonly requests: number;
  /** byMethodCode is the requests by `<method> <code>` (bench.json only: what the count is made of). */
  readonly byMethodCode: Readonly<Record<string, number>>;
};

/** System is one arm while it runs: its name, its count of API requests so far, and what a new namespace gets. */
type System = {
  readonly name: string;
  readonly requests: () => Promise<Requests>;
  /** settle waits until the namespace holds what the system's other controllers put in every namespace. */
  readonly settle: (ns: string) => Promise<void>;
};

/** gone tells whether the namespace is gone: its GET answered 404 (rawKube throws the status on ≥ 300). */
async function gone(ctx: BenchContext, ns: string): Promise<boolean> {
  try {
    await ctx.kube('GET', `/api/v1/namespaces/${ns}`);
    return false;
  } catch (err) {
    if (/: 404 /.test(String(err))) return true;
    throw err;
  }
}

/** round fills a namespace, deletes it and times it until gone, counting the system's requests meanwhile. */
async function round(ctx: BenchContext, system: System, i: number): Promise<Sample> {
  const ns = `s16-${system.name}-${ctx.runId}-${i}`;
  await ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  await fill(ctx, ns, numberKnob(OBJECTS));
  await system.settle(ns);
  const before = await system.requests();
  await ctx.kube('DELETE', `/api/v1/namespaces/${ns}`);
  const deleted = Date.now();
  const deadline = deleted + GONE_TIMEOUT_MS;
  while (!(await gone(ctx, ns))) {
    if (Date.now() > deadline)
      throw new Error(`${system.name}: ${ns} not gone ${GONE_TIMEOUT_MS / 1000} s after its DELETE`);
    await sleep(POLL_MS);
  }
  const seconds = (Date.now() - deleted) / 1000;
  const byMethodCode = since(before, await system.requests());
  const requests = total(byMethodCode);
  ctx.log(
    `${system.name}: ${ns} gone after ${seconds.toFixed(1)} s, ${requests} requests ${JSON.stringify(byMethodCode)}`,
  );
  return { seconds, requests, byMethodCode };
}

async function rounds(ctx: BenchContext, system: System): Promise<Sample[]> {
  const out: Sample[] = [];
  for (let i = 0; i < numberKnob(ROUNDS); i++) out.push(await round(ctx, system, i));
  return out;
}

/**
 * upstreamRounds runs kube-controller-manager with only its namespace-controller, serving /metrics. kcm-bus's
 * reconciler-namespace also gives each namespace its `default` ServiceAccount and `kube-root-ca.crt`, which upstream's
 * controllers not running here would: the bench creates those two itself, so that both namespaces hold the same.
 */
async function upstreamRounds(ctx: BenchContext): Promise<Sample[]> {
  const kcm = startUpstream(ctx.e, { controllers: 'namespace-controller', metrics: true });
  try {
    const url = kcm.metricsUrl ?? '';
    await waitFor(`kube-controller-manager's /metrics (log: ${kcm.logFile})`, () => httpOk(url), {
      timeoutMs: 60_000,
    });
    const ca = readFileSync(ctx.e.caFile, 'utf8');
    return await rounds(ctx, {
      name: 'upstream',
      requests: () => requestsAt(url),
      settle: async (ns) => {
        await ctx.kube('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'default' } });
        await ctx.kube('POST', `/api/v1/namespaces/${ns}/configmaps`, {
          metadata: { name: 'kube-root-ca.crt' },
          data: { 'ca.crt': ca },
        });
      },
    });
  } finally {
    await kcm.stop();
  }
}

/** kcmBusRounds runs the writer and reconciler-namespace; the writer makes every API request of that service. */
function kcmBusRounds(ctx: BenchContext): Promise<Sample[]> {
  return inServiceScope(async () => {
    const writer = await startService('writer', writerFlags(ctx.e, { qps: 20, burst: 30 }));
    await startService('reconciler-namespace', [...busFlags(ctx.e), '--root-ca-file', ctx.e.caFile]);
    return rounds(ctx, {
      name: 'kcm-bus',
      requests: () => requestsAt(writer.metricsUrl),
      settle: async (ns) => {
        await waitFor(
          `${ns}: its default ServiceAccount and kube-root-ca.crt`,
          async () => {
            await ctx.kube('GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`);
            await ctx.kube('GET', `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`);
            return true;
          },
          { timeoutMs: 60_000 },
        );
      },
    });
  });
}

const median = (samples: readonly Sample[], of: 'seconds' | 'requests'): number | undefined =>
  percentile(
    samples.map((s) => s[of]),
    50,
  );

async function run(ctx: BenchContext): Promise<ScenarioResult> {
  const upstream = await upstreamRounds(ctx);
  const kcmBus = await kcmBusRounds(ctx);
  const objects = numberKnob(OBJECTS);
  const content = `${kcmBus.length} namespaces of ${objects} objects + default ServiceAccount + kube-root-ca.crt, pods pending (no node)`;
  const rows: Row[] = [
    {
      scenario: `S16 namespace of ${objects} objects (10 kinds) deleted → gone`,
      unit: 's',
      upstream: median(upstream, 'seconds'),
      kcmBus: median(kcmBus, 'seconds'),
      note: `median; ${content}; DELETE answered → GET 404, polled every ${POLL_MS} ms`,
    },
    {
      scenario: `S16 namespace of ${objects} objects (10 kinds) deleted, API requests`,
      unit: 'requests',
      upstream: median(upstream, 'requests'),
      kcmBus: median(kcmBus, 'requests'),
      note:
        'median; rest_client_requests_total (every code and method) from the DELETE to gone: upstream the whole ' +
        "kube-controller-manager (its namespace informer's requests in the window included), kcm-bus the writer's " +
        "(every write of reconciler-namespace's controllers)",
    },
  ];
  return { rows, data: { upstream, kcmBus } };
}

/** scenario is S16 (the namespace controller, side by side). */
export const scenario: Scenario = {
  id: 's16',
  name: 'namespace-deletion',
  title: `a namespace of ${numberKnob(OBJECTS)} objects deleted, ${numberKnob(ROUNDS)} rounds per system`,
  run,
  knobs: [OBJECTS, ROUNDS],
  measures:
    "upstream's namespace-controller against reconciler-namespace's: a namespace of objects of 10 kinds (pending " +
    'pods among them) deleted, seconds from the DELETE answered to the namespace gone and API requests meanwhile (median over rounds)',
};
