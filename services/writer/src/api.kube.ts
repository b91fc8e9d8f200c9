import { Agent, request, type AgentOptions, type RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { type CredentialCache, sendWithCredentials } from '@kcm-bus/runtime/credentials/index.ts';
import type { KubeApi } from './send.ts';
import type { HttpAnswer } from './outcome.ts';
import type { KubeRequest } from './request.ts';

/** RestClientMetrics observes every request as client-go's rest client does (metric names in rest-metrics.prom.ts). */
export interface RestClientMetrics {
  observe(method: string, code: string, host: string, seconds: number): void;
}

/** REQUEST_TIMEOUT_MS bounds one request; a timeout is a NoResponse answer, retried like a 5xx. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * kubeApi sends described requests over HTTPS with the kubeconfig's TLS identity on kept-alive connections (up to
 * maxSockets at once: the budget, not the socket pool, is what limits the rate) and the credentials' current headers;
 * a request answered 401 is sent once more with fresh credentials (a rotated token).
 */
export async function kubeApi(
  kc: KubeConfig,
  credentials: CredentialCache,
  metrics: RestClientMetrics,
  maxSockets: number,
): Promise<KubeApi> {
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error('the kubeconfig names no cluster server');
  const tls: RequestOptions = {};
  await kc.applyToHTTPSOptions(tls);
  const agent = new Agent({ ...(tls as AgentOptions), keepAlive: true, maxSockets });
  const host = new URL(server).host;
  // A body always goes with its Content-Length: Node frames a DELETE's body neither by length nor chunked, and the
  // apiserver would read it as the start of the next request on the kept-alive connection (400 Bad Request).
  return {
    send: (req) =>
      sendWithCredentials(
        credentials,
        async (auth) => {
          const started = performance.now();
          const headers = {
            ...auth,
            ...req.headers,
            ...(req.body === null ? {} : { 'Content-Length': String(Buffer.byteLength(req.body)) }),
          };
          const answer = await send(
            `${server}${req.path}${query(req)}`,
            { ...tls, agent, method: req.method, headers },
            req.body,
          );
          metrics.observe(
            req.method,
            answer.type === 'Response' ? String(answer.status) : '<error>',
            host,
            (performance.now() - started) / 1000,
          );
          return answer;
        },
        unauthorized,
      ).catch((err: unknown) => ({
        type: 'NoResponse' as const,
        message: `no credentials: ${(err as Error).message}`,
      })),
  };
}

/** unauthorized: the apiserver refused the credentials (send never throws: its failures are NoResponse answers). */
function unauthorized(answer: unknown): boolean {
  const a = answer as HttpAnswer;
  return a.type === 'Response' && a.status === 401;
}

function query(req: KubeRequest): string {
  const q = new URLSearchParams(req.query).toString();
  return q ? `?${q}` : '';
}

function send(url: string, opts: RequestOptions, body: string | null): Promise<HttpAnswer> {
  return new Promise((resolve) => {
    const req = request(url, { ...opts, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          type: 'Response',
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null,
        }),
      );
      res.on('error', (err) => resolve({ type: 'NoResponse', message: err.message }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', (err) => resolve({ type: 'NoResponse', message: err.message }));
    req.end(body ?? undefined);
  });
}
