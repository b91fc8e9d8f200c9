import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';
import { httpOk } from '@kcm-bus/stack/probes.ts';
import { startService } from '@kcm-bus/harness/processes.ts';
import { busFlags } from '@kcm-bus/stack/endpoints.ts';
import { startUpstream } from '@kcm-bus/harness/upstream.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { scrape } from '../probes.ts';
import { writerFlags, type Qps } from '../systems.ts';

/** EndpointsController is the controller an S4 scenario compares: upstream's `--controllers` name, the catalog's too. */
export type EndpointsController = 'endpoints-controller' | 'endpointslice-controller';

/**
 * EndpointsSide is one arm of S4 or S4S: the only controller of its kind acting on Endpoints or EndpointSlices, and
 * its own count of its writes so far, a cross-check of the apiserver's count (apiserver-metrics.ts), which the
 * rows use: upstream's POST + PUT + DELETE in its rest_client_requests_total (the events it records included, the
 * only controller in the process), kcm-bus's creates, updates and deletes of that controller in the writer's
 * kcm_bus_writer_mutations_total that the writer sent (outcome not Refused; one per mutation, retries not counted).
 */
export type EndpointsSide = {
  readonly name: string;
  readonly ownWrites: () => Promise<number>;
  readonly stop: () => Promise<void>;
};

async function restWrites(metricsUrl: string): Promise<number> {
  const page = await scrape(metricsUrl);
  return ['POST', 'PUT', 'DELETE'].reduce((sum, method) => sum + page('rest_client_requests_total', { method }), 0);
}

async function writerWrites(metricsUrl: string, controller: EndpointsController): Promise<number> {
  const page = await scrape(metricsUrl);
  const sent = (verb: string): number =>
    page('kcm_bus_writer_mutations_total', { controller, verb }) -
    page('kcm_bus_writer_mutations_total', { controller, verb, outcome: 'Refused' });
  return sent('Create') + sent('Update') + sent('Delete');
}

/** upstreamEndpoints runs kube-controller-manager with only `controller` (endpoints-controller by default), serving /metrics. */
export async function upstreamEndpoints(
  e: StackEndpoints,
  q: Qps,
  controller: EndpointsController = 'endpoints-controller',
): Promise<EndpointsSide> {
  const kcm = startUpstream(e, { ...q, controllers: controller, metrics: true });
  const url = kcm.metricsUrl ?? '';
  await waitFor(`kube-controller-manager's /metrics (log: ${kcm.logFile})`, () => httpOk(url), { timeoutMs: 60_000 });
  return { name: 'upstream', ownWrites: () => restWrites(url), stop: kcm.stop };
}

/**
 * kcmBusEndpoints runs the writer and reconciler-endpoint, which runs both the endpoints and the endpointslice
 * controller (the watcher runs for the whole bench); ownWrites counts `controller`'s.
 */
export async function kcmBusEndpoints(
  e: StackEndpoints,
  q: Qps,
  controller: EndpointsController = 'endpoints-controller',
): Promise<EndpointsSide> {
  const writer = await startService('writer', writerFlags(e, q));
  const reconciler = await startService('reconciler-endpoint', busFlags(e));
  return {
    name: 'kcm-bus',
    ownWrites: () => writerWrites(writer.metricsUrl, controller),
    stop: async () => {
      await reconciler.stop();
      await writer.stop();
    },
  };
}
