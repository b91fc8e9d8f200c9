import { readdirSync, readFileSync } from 'node:fs';
import { httpCall } from '@kcm-bus/stack/probes.ts';
import { parseMetrics, type Scraped } from '@kcm-bus/harness/metrics-text.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

/** rssBytes is a process's resident set size: VmRSS of /proc/<pid>/status. */
export function rssBytes(pid: number): number {
  return statusSizes(pid)('VmRSS');
}

/**
 * statusSizes reads /proc/<pid>/status once and gives the sizes it holds in kB (VmRSS, RssAnon, RssFile, …), in
 * bytes; a field it lacks throws.
 */
export function statusSizes(pid: number): (field: string) => number {
  const lines = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n');
  return (field) => {
    const line = lines.find((l) => l.startsWith(`${field}:`));
    if (line === undefined) throw new Error(`no ${field} for pid ${pid}: has it exited?`);
    return Number(line.split(/\s+/)[1]) * 1024;
  };
}

/**
 * childPid is the pid of a process this one started whose command line contains `needle` (the bench's own
 * watcher, not that of another stack running on the machine).
 */
export function childPid(needle: string): number {
  const mine = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .find((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        const ppid = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
        return ppid === String(process.pid) && readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(needle);
      } catch {
        return false;
      }
    });
  if (mine === undefined) throw new Error(`no child process of ${process.pid} runs ${needle}`);
  return Number(mine);
}

/** running tells whether a process exists and has not exited (a zombie, exited but not yet reaped, has). */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** terminate sends SIGTERM to a process (one the bench did not start through startService) and waits until it exited. */
export async function terminate(pid: number): Promise<void> {
  process.kill(pid, 'SIGTERM');
  await waitFor(`pid ${pid} to exit after SIGTERM`, () => !running(pid), { timeoutMs: 60_000, intervalMs: 100 });
}

/**
 * RC_METRICS are the labels of the RC controller's series on reconciler-rc's /metrics: reconciler-rc also runs the
 * ReplicaSet controller, and a scrape adds up every series that matches, so a figure of the RC controller names it.
 */
export const RC_METRICS = { controller: 'replicationcontroller-controller' } as const;

/** scrape fetches a Prometheus text page once (HTTPS without verifying: upstream's self-signed serving certificate). */
export async function scrape(url: string): Promise<Scraped> {
  return parseMetrics((await httpCall(url, { timeoutMs: 10_000 })).body);
}

/** Steady gives a probe's last sample, once all probes held steady. */
export type Steady<K extends string> = (probe: K) => number;

/**
 * waitSteady samples every probe once a second until each one's last `window` samples lie within `tolerance`
 * (relative: (max - min) / max) and returns the last samples; it fails after the deadline.
 */
export async function waitSteady<K extends string>(
  what: string,
  probes: Readonly<Record<K, () => number | Promise<number>>>,
  opts: { readonly window?: number; readonly tolerance?: number; readonly timeoutMs?: number } = {},
): Promise<Steady<K>> {
  const window = opts.window ?? 5;
  const names = Object.keys(probes) as K[];
  const seen = new Map<K, number[]>(names.map((k) => [k, []]));
  const steady = (xs: readonly number[]): boolean =>
    xs.length >= window && Math.max(...xs) - Math.min(...xs) <= (opts.tolerance ?? 0.03) * Math.max(...xs);
  return waitFor(
    `${what} to hold steady`,
    async () => {
      for (const k of names) seen.set(k, [...(seen.get(k) ?? []), await probes[k]()].slice(-window));
      return names.every((k) => steady(seen.get(k) ?? [])) && ((k: K) => seen.get(k)?.at(-1) ?? 0);
    },
    { timeoutMs: opts.timeoutMs ?? 300_000, intervalMs: 1000 },
  );
}

/** Session is a DevTools protocol session with one Node process's inspector. */
type Session = {
  readonly call: (method: string, params?: object) => Promise<Record<string, unknown>>;
  readonly close: () => void;
};

async function session(url: string): Promise<Session> {
  const ws = new WebSocket(url);
  await new Promise<void>((ok, fail) => {
    ws.addEventListener('open', () => ok(), { once: true });
    ws.addEventListener('error', () => fail(new Error(`cannot connect to the inspector at ${url}`)), { once: true });
  });
  const waiting = new Map<number, { ok: (v: Record<string, unknown>) => void; fail: (e: Error) => void }>();
  ws.addEventListener('message', (e) => {
    const m = JSON.parse(String(e.data)) as {
      id?: number;
      result?: Record<string, unknown>;
      error?: { message: string };
    };
    const w = waiting.get(m.id ?? -1);
    if (m.error) w?.fail(new Error(m.error.message));
    else w?.ok(m.result ?? {});
  });
  let next = 0;
  return {
    call: (method, params = {}) =>
      new Promise((ok, fail) => {
        waiting.set(++next, { ok, fail });
        ws.send(JSON.stringify({ id: next, method, params }));
      }),
    close: () => ws.close(),
  };
}

/** INSPECTOR is where a Node process opens its inspector on SIGUSR1 (one process at a time). */
const INSPECTOR = 'http://127.0.0.1:9229/json/list';

/** GcMemory is what a Node process reports of its memory right after a full garbage collection (bytes). */
export type GcMemory = {
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly external: number;
  readonly arrayBuffers: number;
};

/**
 * gcMemory runs a full garbage collection in a Node process and returns its memory afterwards: heapUsed is the live
 * heap, without the garbage that RSS and heap gauges of an idle process carry for a long time. Once 127.0.0.1:9229 is
 * free, SIGUSR1 opens the process's inspector there; the session checks the pid, collects, reads, and closes it.
 */
export async function gcMemory(pid: number): Promise<GcMemory> {
  await waitFor(
    '127.0.0.1:9229 to be free',
    async () =>
      !(await fetch(INSPECTOR).then(
        () => true,
        () => false,
      )),
    { timeoutMs: 10_000 },
  );
  process.kill(pid, 'SIGUSR1');
  const url = await waitFor(
    `the inspector of pid ${pid}`,
    async () =>
      ((await (await fetch(INSPECTOR)).json()) as { webSocketDebuggerUrl?: string }[])[0]?.webSocketDebuggerUrl,
    { timeoutMs: 10_000 },
  );
  const s = await session(url);
  const evaluate = async (expression: string): Promise<unknown> =>
    ((await s.call('Runtime.evaluate', { expression, returnByValue: true })) as { result: { value: unknown } }).result
      .value;
  try {
    const who = await evaluate('process.pid');
    if (who !== pid) throw new Error(`the inspector on 127.0.0.1:9229 is pid ${String(who)}'s, not ${pid}'s`);
    await s.call('HeapProfiler.collectGarbage');
    const usage = JSON.parse(String(await evaluate('JSON.stringify(process.memoryUsage())'))) as GcMemory;
    // inspector.close() waits for the sessions to end: scheduled, it runs once this one closed.
    await evaluate("setTimeout(() => process.getBuiltinModule('node:inspector').close(), 100), 0");
    return {
      heapUsed: usage.heapUsed,
      heapTotal: usage.heapTotal,
      external: usage.external,
      arrayBuffers: usage.arrayBuffers,
    };
  } finally {
    s.close();
  }
}

const KB = 1024;
/** ARENA is the span glibc reserves for each of its arenas but the main one (HEAP_MAX_SIZE on 64-bit), aligned to it. */
const ARENA = 64 * KB * KB;

export type Mapping = {
  readonly start: bigint;
  readonly perms: string;
  readonly path: string;
  size: number;
  rss: number;
};

/** mallocHeapBytes is the resident part of a process's brk heap ([heap] in /proc/<pid>/smaps): glibc's main arena. */
export function mallocHeapBytes(pid: number): number {
  return smapsOf(pid).find((m) => m.path === '[heap]')?.rss ?? 0;
}

/**
 * mallocArenaBytes is the resident memory of glibc's malloc arenas, from /proc/<pid>/smaps: the brk heap ([heap], the
 * main arena) and the 64 MB-aligned heaps of the other arenas (a read-write start, the reserved rest of the 64 MB
 * behind it). The rest of a Node process's anonymous memory is V8's (the pages of its spaces, those it pooled, large
 * objects), blocks malloc mapped on their own (Buffers of 128 KB or more) and thread stacks.
 */
export function mallocArenaBytes(pid: number): number {
  return mallocArenasOf(smapsOf(pid));
}

/** mallocArenasOf is mallocArenaBytes of a process's mappings (smapsMappings). */
export function mallocArenasOf(maps: readonly Mapping[]): number {
  return maps.reduce((sum, m, i) => {
    const anon = m.path === '' && m.perms.startsWith('rw');
    const reserved = m.size + (maps[i + 1]?.size ?? 0);
    const arena = anon && m.start % BigInt(ARENA) === 0n && (m.size === ARENA || reserved === ARENA);
    return sum + (arena || m.path === '[heap]' ? m.rss : 0);
  }, 0);
}

/** smapsOf reads a process's mappings from /proc/<pid>/smaps. */
const smapsOf = (pid: number): Mapping[] => smapsMappings(readFileSync(`/proc/${pid}/smaps`, 'utf8'));

/** smapsMappings are the mappings of an smaps text: start, permissions, path (anonymous: ''), Size and Rss in bytes. */
export function smapsMappings(smaps: string): Mapping[] {
  const maps: Mapping[] = [];
  for (const line of smaps.split('\n')) {
    const head = /^([0-9a-f]+)-[0-9a-f]+ (\S{4}) \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head !== null) {
      maps.push({ start: BigInt(`0x${head[1]}`), perms: head[2]!, path: head[3] ?? '', size: 0, rss: 0 });
      continue;
    }
    const field = /^(Size|Rss):\s+(\d+) kB/.exec(line);
    const last = maps.at(-1);
    if (field !== null && last !== undefined) last[field[1] === 'Size' ? 'size' : 'rss'] = Number(field[2]) * KB;
  }
  return maps;
}
