import { readFileSync } from 'node:fs';
import { sumsBy } from '@kcm-bus/harness/metrics-text.ts';
import { httpCall } from '@kcm-bus/stack/probes.ts';

/** ApiCounts are Kafka requests by API (Produce, Fetch, EndTxn, ...). */
export type ApiCounts = Readonly<Record<string, number>>;

/** metricsUrlOf is a kcm-bus service's /metrics, from the --metrics-bind-address on its command line. */
export function metricsUrlOf(pid: number): string {
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const at = args.indexOf('--metrics-bind-address');
  if (at < 0 || args[at + 1] === undefined)
    throw new Error(`pid ${pid} has no --metrics-bind-address: not a kcm-bus service`);
  return `http://${args[at + 1]}/metrics`;
}

/** parseRequestCounts reads kcm_bus_kafka_requests_total's samples of a /metrics page by API. */
export function parseRequestCounts(page: string): ApiCounts {
  return sumsBy(page, 'kcm_bus_kafka_requests_total', (labels) => labels['api']);
}

/** Requests are Kafka requests counted two ways: by API over all the processes, and in all by process. */
export type Requests = { readonly byApi: ApiCounts; readonly byProcess: Readonly<Record<string, number>> };

async function countsOf(processes: Readonly<Record<string, number>>): Promise<Record<string, ApiCounts>> {
  const read = async ([name, pid]: [string, number]): Promise<[string, ApiCounts]> => [
    name,
    parseRequestCounts((await httpCall(metricsUrlOf(pid), { timeoutMs: 10_000 })).body),
  ];
  return Object.fromEntries(await Promise.all(Object.entries(processes).map(read)));
}

/** since is what each process sent between two readings, by API and in all. */
function since(start: Readonly<Record<string, ApiCounts>>, now: Readonly<Record<string, ApiCounts>>): Requests {
  const byApi: Record<string, number> = {};
  const byProcess: Record<string, number> = {};
  for (const [name, counts] of Object.entries(now)) {
    for (const [api, n] of Object.entries(counts)) {
      const sent = n - (start[name]?.[api] ?? 0);
      byApi[api] = (byApi[api] ?? 0) + sent;
      byProcess[name] = (byProcess[name] ?? 0) + sent;
    }
  }
  return { byApi, byProcess };
}

/** RequestMeter gives the Kafka requests the processes sent since it started. */
export type RequestMeter = { readonly read: () => Promise<Requests> };

/** requestMeter starts counting the Kafka requests of kcm-bus services (name → pid). */
export async function requestMeter(processes: Readonly<Record<string, number>>): Promise<RequestMeter> {
  const start = await countsOf(processes);
  return { read: async () => since(start, await countsOf(processes)) };
}

/** requestsNote names the APIs (or processes) by count, scaled by `scale` (per 1000 pods, per minute), the largest first. */
export function requestsNote(counts: ApiCounts, scale: number, top = 6): string {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort(([, a], [, b]) => b - a)
    .slice(0, top)
    .map(([api, n]) => `${api} ${(n * scale).toFixed(0)}`)
    .join(', ');
}

/** scaledRequests are requests times `scale` (per minute from a window's length), both ways. */
export function scaledRequests(r: Requests, scale: number): Requests {
  const times = (counts: Readonly<Record<string, number>>): Record<string, number> =>
    Object.fromEntries(Object.entries(counts).map(([k, n]) => [k, n * scale]));
  return { byApi: times(r.byApi), byProcess: times(r.byProcess) };
}
