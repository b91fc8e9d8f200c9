import { bothArms, FULL, KNOBS, latencyMs, N, QPS, SERVED, STEPS, type Target } from '../../lib/endpoints/runs.ts';
import { percentile } from '../../lib/stats.ts';
import { watchReadyToSlices } from './ready-to-slices.ts';
import type { BenchContext, Row, Scenario, ScenarioResult } from '../../lib/scenario.ts';

/** SLICES is S4S's target: the Service's EndpointSlices, upstream's endpointslice-controller against reconciler-endpoint's. */
const SLICES: Target = {
  app: 's4s',
  noun: 'EndpointSlices',
  resource: 'endpointslices',
  controller: 'endpointslice-controller',
  watch: watchReadyToSlices,
};

async function run(ctx: BenchContext): Promise<ScenarioResult> {
  const { upstream, kcmBus } = await bothArms(ctx, SLICES);
  const own = `own counts: upstream ${upstream.fill.ownWrites} (its rest_client_requests_total POST+PUT+DELETE, events included), kcm-bus ${kcmBus.fill.ownWrites} (the writer's endpointslice-controller mutations sent)`;
  const rows: Row[] = [
    ...[50, 99].map((p): Row => ({
      scenario: `S4S pod Ready → in EndpointSlices, p${p}`,
      unit: 'ms',
      upstream: percentile(latencyMs(upstream.latency), p),
      kcmBus: percentile(latencyMs(kcmBus.latency), p),
      note: `${STEPS} pods replaced behind a Service over an RC of ${SERVED}; client watches, ready in any slice`,
    })),
    {
      scenario: 'S4S EndpointSlice PUT, mean over the replacements',
      unit: 'ms',
      upstream: upstream.puts.meanMs,
      kcmBus: kcmBus.puts.meanMs,
      note: `${upstream.puts.count} vs ${kcmBus.puts.count} PUTs; the apiserver's apiserver_request_duration_seconds{resource="endpointslices"}, its part of a step`,
    },
    {
      scenario: `S4S EndpointSlice writes, RC 0 → ${N} → 0`,
      unit: 'writes',
      upstream: upstream.fill.writes,
      kcmBus: kcmBus.fill.writes,
      note: `POST+PUT+DELETE of EndpointSlices at the apiserver (apiserver_request_total), qps ${QPS.qps}/${QPS.burst}; ${own}`,
    },
    {
      scenario: `S4S ${FULL} ready endpoints in EndpointSlices, RC 0 → ${N}`,
      unit: 's',
      upstream: upstream.fill.fullS,
      kcmBus: kcmBus.fill.fullS,
      note: `pods by upstream's RC controller in both arms; back to 0 in ${upstream.fill.emptyS.toFixed(1)} vs ${kcmBus.fill.emptyS.toFixed(1)} s`,
    },
  ];
  return { rows, data: { pods: N, steps: STEPS, served: SERVED, qps: QPS, upstream, kcmBus } };
}

/**
 * S4S: EndpointSlices, each arm with only its endpointslice controller acting on them (upstream's RC controller makes
 * the pods in both; kcm-bus's reconciler-endpoint runs the endpoints controller beside, its writes through the same
 * writer and its 20/30 budget): pod Ready → listed ready in the Service's slices p50/p99 over BENCH_STEPS (100)
 * replacements; EndpointSlice writes at the apiserver and time to 1000 ready endpoints while an RC scales
 * 0 → BENCH_PODS (1000) → 0 at 20/30.
 */
export const scenario: Scenario = {
  id: 's4s',
  name: 'endpoint-slices',
  title: 'EndpointSlice latency and writes',
  run,
  knobs: KNOBS,
  measures:
    "upstream's endpointslice-controller against reconciler-endpoint's: pod Ready → listed ready in the Service's " +
    "EndpointSlices, p50/p99; the apiserver's EndpointSlice PUT time; slice writes and seconds to 1000 ready endpoints while an RC scales 0 → N → 0",
};
