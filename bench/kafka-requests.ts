import { readFileSync } from 'node:fs';
import { httpCall } from '@kcm-bus/stack/probes.ts';

/** SAMPLE is one sample line of kcm_bus_kafka_requests_total: its API and value. */
const SAMPLE = /^kcm_bus_kafka_requests_total\{api="([^"]+)"\} (\S+)$/;

/** ApiCounts are Kafka requests by API (Produce, Fetch, EndTxn, ...). */
export type ApiCounts = Readonly<Record<string, number>>;

/** metricsUrlOf is a kcm-bus service's /metrics, from the --metrics-bind-address on its command line. */
export function metricsUrlOf(pid: number): string {
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const at = args.indexOf('--metrics-bind-address');
  if (at < 0 || args[at + 1] === undefined) throw new Error(`pid ${pid} has no --metrics-bind-address: not a kcm-bus service`);
  return `http://${args[at + 1]}/metrics`;
}

/** parseRequestCounts reads kcm_bus_kafka_requests_total's samples of a /metrics page by API. */
export function parseRequestCounts(page: string): ApiCounts {
  const counts: Record<string, number> = {};
  for (const line of page.split('\n')) {
    const api = SAMPLE.exec(line);
    if (api) counts[api[1]!] = (counts[api[1]!] ?? 0) + Number(api[2]);
  }
  return counts;
}

async function countsOf(pids: readonly number[]): Promise<ApiCounts> {
  const pages = await Promise.all(pids.map(async (pid) => parseRequestCounts((await httpCall(metricsUrlOf(pid), { timeoutMs: 10_000 })).body)));
  const total: Record<string, number> = {};
  for (const page of pages) for (const [api, n] of Object.entries(page)) total[api] = (total[api] ?? 0) + n;
  return total;
}

/** RequestMeter gives the Kafka requests the processes sent since it started, summed by API. */
export type RequestMeter = { readonly read: () => Promise<ApiCounts> };

/** requestMeter starts counting the Kafka requests of kcm-bus services, by pid. */
export async function requestMeter(pids: readonly number[]): Promise<RequestMeter> {
  const start = await countsOf(pids);
  return {
    read: async () => {
      const now = await countsOf(pids);
      return Object.fromEntries(Object.entries(now).map(([api, n]) => [api, n - (start[api] ?? 0)]));
    },
  };
}

/** totalRequests adds up every API's requests. */
export function totalRequests(counts: ApiCounts): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/** requestsNote names the APIs by count, scaled by `scale` (per 1000 pods, per minute), the largest first. */
export function requestsNote(counts: ApiCounts, scale: number, top = 6): string {
  return Object.entries(counts).filter(([, n]) => n > 0).sort(([, a], [, b]) => b - a).slice(0, top)
    .map(([api, n]) => `${api} ${(n * scale).toFixed(0)}`).join(', ');
}
