import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';
import { httpOk } from '@kcm-bus/stack/probes.ts';
import { startService } from '../test/support/processes.ts';
import { busFlags } from '../test/support/stack.ts';
import { startUpstream } from '../test/support/upstream.ts';
import { waitFor } from '../test/support/wait.ts';
import { scrape } from './probes.ts';
import { writerFlags, type Qps } from './systems.ts';

/** PutTime is the sum (s) and count of a side's PUTs so far, from its rest_client_request_duration_seconds. */
export type PutTime = { readonly seconds: number; readonly count: number };

/**
 * EndpointsSide is one arm of S4: the only endpoints controller acting on Endpoints, its API writes so far (PUT +
 * POST of its rest_client_requests_total: Endpoints updates and creates, and the events it records), and the time
 * its PUTs took so far: the apiserver's own part of a step, in the same client-go histogram on both sides.
 */
export type EndpointsSide = {
  readonly name: string; readonly writes: () => Promise<number>; readonly putTime: () => Promise<PutTime>; readonly stop: () => Promise<void>;
};

async function putsAndPosts(metricsUrl: string): Promise<number> {
  const page = await scrape(metricsUrl);
  return page('rest_client_requests_total', { method: 'PUT' }) + page('rest_client_requests_total', { method: 'POST' });
}

async function putTime(metricsUrl: string): Promise<PutTime> {
  const page = await scrape(metricsUrl);
  return { seconds: page('rest_client_request_duration_seconds_sum', { verb: 'PUT' }), count: page('rest_client_request_duration_seconds_count', { verb: 'PUT' }) };
}

/** upstreamEndpoints runs kube-controller-manager with only endpoints-controller, serving /metrics. */
export async function upstreamEndpoints(e: StackEndpoints, q: Qps): Promise<EndpointsSide> {
  const kcm = startUpstream(e, { ...q, controllers: 'endpoints-controller', metrics: true });
  const url = kcm.metricsUrl ?? '';
  await waitFor(`kube-controller-manager's /metrics (log: ${kcm.logFile})`, () => httpOk(url), { timeoutMs: 60_000 });
  return { name: 'upstream', writes: () => putsAndPosts(url), putTime: () => putTime(url), stop: kcm.stop };
}

/** kcmBusEndpoints runs the writer and reconciler-endpoint (the watcher runs for the whole bench). */
export async function kcmBusEndpoints(e: StackEndpoints, q: Qps): Promise<EndpointsSide> {
  const writer = await startService('writer', writerFlags(e, q));
  const reconciler = await startService('reconciler-endpoint', busFlags(e));
  return {
    name: 'kcm-bus',
    writes: () => putsAndPosts(writer.metricsUrl),
    putTime: () => putTime(writer.metricsUrl),
    stop: async () => {
      await reconciler.stop();
      await writer.stop();
    },
  };
}
