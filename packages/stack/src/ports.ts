import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';

/** PortTakenError names the port that is taken and, when it can be found, the process holding it. */
export class PortTakenError extends Error {}

/** assertPortsFree fails with a PortTakenError naming the first taken port (and its holder). */
export async function assertPortsFree(
  ports: readonly { readonly name: string; readonly port: number }[],
): Promise<void> {
  for (const { name, port } of ports) {
    if (await isFree(port)) continue;
    const holder = portHolder(port);
    throw new PortTakenError(
      `port ${port} (${name}) on 127.0.0.1 is already taken` +
        (holder ? ` by pid ${holder.pid}: ${holder.cmdline}` : '') +
        `; stop that process or choose other ports with KCM_BUS_PORT_BASE`,
    );
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** portHolder finds the process listening on a TCP port through /proc (Linux), or undefined. */
export function portHolder(port: number): { readonly pid: number; readonly cmdline: string } | undefined {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    if (ownsSocket(pid, inodes)) {
      const cmdline = safeRead(`/proc/${pid}/cmdline`).split('\0').join(' ').trim();
      return { pid: Number(pid), cmdline };
    }
  }
  return undefined;
}

function listeningInodes(port: number): Set<string> {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of safeRead(table).split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[1]?.endsWith(`:${hex}`) && cols[3] === '0A' && cols[9]) inodes.add(cols[9]);
    }
  }
  return inodes;
}

function ownsSocket(pid: string, inodes: Set<string>): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      const target = safeLink(`/proc/${pid}/fd/${fd}`);
      return target.startsWith('socket:[') && inodes.has(target.slice(8, -1));
    });
  } catch {
    return false;
  }
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function safeLink(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
}
