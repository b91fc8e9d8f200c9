/** What a system's client requests count: rest_client_requests_total by method and code (S16, S17). */
import { httpCall } from '@kcm-bus/stack/probes.ts';

/** Requests is a count of rest_client_requests_total by `<method> <code>`. */
export type Requests = Readonly<Record<string, number>>;

/** requestsAt reads rest_client_requests_total of a /metrics page by method and code (summed over hosts). */
export async function requestsAt(metricsUrl: string): Promise<Requests> {
  const out: Record<string, number> = {};
  for (const line of (await httpCall(metricsUrl, { timeoutMs: 10_000 })).body.split('\n')) {
    if (!line.startsWith('rest_client_requests_total{')) continue;
    const label = (name: string): string => new RegExp(`[{,]${name}="([^"]*)"`).exec(line)?.[1] ?? '?';
    const key = `${label('method')} ${label('code')}`;
    out[key] = (out[key] ?? 0) + Number(line.split(' ').at(-1));
  }
  return out;
}

/** since is what was counted after and not before, the keys that did not change left out. */
export function since(before: Requests, after: Requests): Requests {
  const diff = Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)] as const);
  return Object.fromEntries(diff.filter(([, v]) => v !== 0));
}

/** total is the count of every method and code. */
export const total = (r: Requests): number => Object.values(r).reduce((a, b) => a + b, 0);
