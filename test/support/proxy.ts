import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** ProxyMode: forward bytes; answer new connections with garbage; or stall existing connections (silent watch). */
export type ProxyMode = 'forward' | 'garbage' | 'stall';

/** FaultProxy is a TCP proxy in front of the apiserver that tests use to break the watcher's connections. */
export type FaultProxy = {
  readonly port: number;
  setMode(mode: ProxyMode): void;
  /** dropAll cuts every open connection, as a crashed load balancer would. */
  dropAll(): void;
  close(): Promise<void>;
};

/** startFaultProxy listens on a free loopback port and forwards to target (TLS passes through untouched). */
export async function startFaultProxy(targetPort: number): Promise<FaultProxy> {
  let mode: ProxyMode = 'forward';
  const open = new Set<Socket>();
  const stalled = new Set<Socket>();
  const server: Server = createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => undefined);
    if (mode === 'garbage')
      return void client.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{"type": garbage');
    const upstream = connect({ port: targetPort, host: '127.0.0.1' });
    open.add(upstream);
    upstream.on('close', () => (open.delete(upstream), client.destroy()));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('data', (chunk: Buffer) => void (stalled.has(client) ? undefined : client.write(chunk)));
    client.on('data', (chunk: Buffer) => void upstream.write(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    setMode: (m) => {
      mode = m;
      if (m === 'stall') for (const s of open) stalled.add(s);
    },
    dropAll: () => [...open].forEach((s) => s.destroy()),
    close: () =>
      new Promise((resolve) => {
        [...open].forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}
