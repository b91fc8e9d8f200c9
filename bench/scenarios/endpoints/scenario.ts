import {
  bothArms,
  FULL,
  KNOBS,
  latencyMs,
  latencyNs,
  N,
  QPS,
  SERVED,
  STEPS,
  type Target,
} from '../../lib/endpoints/runs.ts';
import { endpointsHopRows } from './hops.ts';
import { percentile } from '../../lib/stats.ts';
import { watchReadyToEndpoints } from '../../lib/endpoints/ready-to-endpoints.ts';
import type { BenchContext, Row, Scenario, ScenarioResult } from '../../lib/scenario.ts';

/** ENDPOINTS is S4's target: the Service's Endpoints, upstream's endpoints-controller against reconciler-endpoint's. */
const ENDPOINTS: Target = {
  app: 's4',
  noun: 'Endpoints',
  resource: 'endpoints',
  controller: 'endpoints-controller',
  watch: watchReadyToEndpoints,
};

async function run(ctx: BenchContext): Promise<ScenarioResult> {
  const { upstream, kcmBus } = await bothArms(ctx, ENDPOINTS);
  const own = `own counts: upstream ${upstream.fill.ownWrites} (its rest_client_requests_total POST+PUT+DELETE, events included), kcm-bus ${kcmBus.fill.ownWrites} (the writer's endpoints-controller mutations sent)`;
  const rows: Row[] = [
    ...[50, 99].map((p): Row => ({
      scenario: `S4 pod Ready → in Endpoints, p${p}`,
      unit: 'ms',
      upstream: percentile(latencyMs(upstream.latency), p),
      kcmBus: percentile(latencyMs(kcmBus.latency), p),
      note: `${STEPS} pods replaced behind a Service over an RC of ${SERVED}; client watches`,
    })),
    {
      scenario: 'S4 Endpoints PUT, mean over the replacements',
      unit: 'ms',
      upstream: upstream.puts.meanMs,
      kcmBus: kcmBus.puts.meanMs,
      note: `${upstream.puts.count} vs ${kcmBus.puts.count} PUTs; the apiserver's apiserver_request_duration_seconds{resource="endpoints"}, its part of a step`,
    },
    {
      scenario: `S4 Endpoints writes, RC 0 → ${N} → 0`,
      unit: 'writes',
      upstream: upstream.fill.writes,
      kcmBus: kcmBus.fill.writes,
      note: `POST+PUT+DELETE of Endpoints at the apiserver (apiserver_request_total), qps ${QPS.qps}/${QPS.burst}; ${own}`,
    },
    {
      scenario: `S4 ${FULL} ready addresses in Endpoints, RC 0 → ${N}`,
      unit: 's',
      upstream: upstream.fill.fullS,
      kcmBus: kcmBus.fill.fullS,
      note: `pods by upstream's RC controller in both arms; back to 0 in ${upstream.fill.emptyS.toFixed(1)} vs ${kcmBus.fill.emptyS.toFixed(1)} s`,
    },
    ...(await endpointsHopRows(ctx.e, latencyNs(ctx, ENDPOINTS, 'kcm-bus'), kcmBus.latency)),
  ];
  return { rows, data: { pods: N, steps: STEPS, served: SERVED, qps: QPS, upstream, kcmBus } };
}

/**
 * S4: Endpoints, each arm with only its endpoints controller acting on them (upstream's RC controller makes the pods
 * in both; kcm-bus's reconciler-endpoint runs the endpointslice controller beside, its writes through the same
 * writer): pod Ready → in Endpoints p50/p99 over BENCH_STEPS (100) replacements; Endpoints writes at the apiserver and
 * time to 1000 ready addresses while an RC scales 0 → BENCH_PODS (1000) → 0 at 20/30.
 */
export const scenario: Scenario = {
  id: 's4',
  name: 'endpoints',
  title: 'Endpoints latency and writes',
  run,
  knobs: KNOBS,
  measures:
    "upstream's endpoints-controller against reconciler-endpoint's: pod Ready → in the Service's Endpoints, p50/p99 and " +
    "kcm-bus's hops; the apiserver's Endpoints PUT time; Endpoints writes and seconds to 1000 ready addresses while an RC scales 0 → N → 0",
};
