import { httpCall } from '@kcm-bus/stack/probes.ts';
import { tlsClient } from '@kcm-bus/stack/pki.ts';
import { parseMetrics, type Scraped } from '@kcm-bus/harness/metrics-text.ts';
import type { BenchContext } from '../scenario.ts';

/** ApiResource is a resource whose writes S4 counts at the apiserver: Endpoints (S4) or EndpointSlices (S4S). */
export type ApiResource = 'endpoints' | 'endpointslices';

/** WRITE_VERBS are the apiserver's verbs of a create, an update and a delete (apiserver_request_total's `verb`). */
export const WRITE_VERBS = ['POST', 'PUT', 'DELETE'] as const;

/** PutTime is the sum (s) and count of the PUTs of a resource so far. */
export type PutTime = { readonly seconds: number; readonly count: number };

/** apiserverScrape reads the bench apiserver's /metrics once, as admin. */
export async function apiserverScrape(ctx: BenchContext): Promise<Scraped> {
  const answer = await httpCall(`${ctx.e.apiserver}/metrics`, {
    tls: tlsClient(ctx.stack.dir, 'admin'),
    timeoutMs: 10_000,
  });
  if (answer.status !== 200)
    throw new Error(`GET ${ctx.e.apiserver}/metrics: ${answer.status} ${answer.body.slice(0, 200)}`);
  return parseMetrics(answer.body);
}

/**
 * apiserverWrites are the creates, updates and deletes of `resource` the apiserver has served so far, from any client
 * and whatever their answer (apiserver_request_total{resource, verb=POST|PUT|DELETE}, every code): the same count
 * in both arms, whichever process wrote, and without the events a controller records (resource "events").
 */
export async function apiserverWrites(ctx: BenchContext, resource: ApiResource): Promise<number> {
  const page = await apiserverScrape(ctx);
  return WRITE_VERBS.reduce((sum, verb) => sum + page('apiserver_request_total', { resource, verb }), 0);
}

/** apiserverPutTime is the time the apiserver took over the PUTs of `resource` so far (apiserver_request_duration_seconds). */
export async function apiserverPutTime(ctx: BenchContext, resource: ApiResource): Promise<PutTime> {
  const page = await apiserverScrape(ctx);
  const labels = { resource, verb: 'PUT' };
  return {
    seconds: page('apiserver_request_duration_seconds_sum', labels),
    count: page('apiserver_request_duration_seconds_count', labels),
  };
}
