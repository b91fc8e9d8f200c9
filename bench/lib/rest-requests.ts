/** What a system's client requests count: rest_client_requests_total by method and code (S16, S17). */
import { sumsBy } from '@kcm-bus/harness/metrics-text.ts';
import { httpCall } from '@kcm-bus/stack/probes.ts';

/** Requests is a count of rest_client_requests_total by `<method> <code>`. */
export type Requests = Readonly<Record<string, number>>;

/** requestsAt reads rest_client_requests_total of a /metrics page by method and code (summed over hosts). */
export async function requestsAt(metricsUrl: string): Promise<Requests> {
  const page = (await httpCall(metricsUrl, { timeoutMs: 10_000 })).body;
  return sumsBy(page, 'rest_client_requests_total', (l) => `${l['method'] ?? '?'} ${l['code'] ?? '?'}`);
}

/** since is what was counted after and not before, the keys that did not change left out. */
export function since(before: Requests, after: Requests): Requests {
  const diff = Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)] as const);
  return Object.fromEntries(diff.filter(([, v]) => v !== 0));
}
