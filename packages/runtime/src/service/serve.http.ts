import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

/**
 * Probes say whether the service lives and whether it is ready (e.g. synced, connected); notReadyReason, when
 * given, says why it is not (the body of a 503 /readyz).
 */
export type Probes = {
  readonly healthy: () => boolean;
  readonly ready: () => boolean;
  readonly notReadyReason?: () => string | undefined;
};

/**
 * serveHttp answers /healthz, /readyz (200 "ok" or 503 with the reason) and /metrics (Prometheus text
 * from the service's registry) on the address given as host:port; port 0 picks a free one.
 */
export async function serveHttp(addr: string, registry: Registry, probes: Probes): Promise<Server> {
  const [host, port] = splitAddr(addr);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const probe = path === '/healthz' ? probes.healthy : path === '/readyz' ? probes.ready : undefined;
    if (probe) {
      const ok = probe();
      const why = path === '/readyz' ? probes.notReadyReason?.() : undefined;
      res
        .writeHead(ok ? 200 : 503, { 'content-type': 'text/plain' })
        .end(ok ? 'ok' : (why ?? (path === '/readyz' ? 'not ready' : 'unhealthy')));
    } else if (path === '/metrics') {
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (err: unknown) => res.writeHead(500).end(String(err)),
      );
    } else {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return server;
}

function splitAddr(addr: string): [string, number] {
  const i = addr.lastIndexOf(':');
  const port = Number(addr.slice(i + 1));
  if (i < 0 || !Number.isInteger(port))
    throw new Error(`--metrics-bind-address ${JSON.stringify(addr)} is not host:port`);
  return [addr.slice(0, i) || '0.0.0.0', port];
}

/** boundAddress is where a server listens, as host:port (to print the URL of port 0). */
export function boundAddress(server: Server): string {
  const a = server.address();
  return typeof a === 'object' && a !== null ? `${a.address}:${a.port}` : String(a);
}
