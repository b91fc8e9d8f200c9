import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceLaunch } from '@kcm-bus/runtime/service/index.ts';
import { serviceScript } from '@kcm-bus/stack/services.ts';
import { parseMetrics } from './metrics-text.ts';
import { waitFor } from './wait.ts';

/** ServiceProcess is a kcm-bus service a test or the bench started; they stop what they start, also when they fail. */
export type ServiceProcess = {
  readonly process: ChildProcess;
  readonly metricsUrl: string;
  readonly logFile: string;
  readonly exited: Promise<number | null>;
  /** stop sends SIGTERM and waits for the exit status, sending SIGKILL if none came killAfterMs later. */
  readonly stop: (killAfterMs?: number) => Promise<number | null>;
};

const started = new Set<ServiceProcess>();

/**
 * STOP_KILL_MS is how long a stop waits after SIGTERM before SIGKILL: twice a service's own
 * --graceful-shutdown-timeout (30 s), past which it exits by itself unless its event loop is stuck (then its timer
 * cannot fire: a chaos bench once waited on such a writer until it was killed by hand).
 */
const STOP_KILL_MS = 60_000;

/**
 * startService runs services/<name>/src/main.ts (or opts.script) with the given flags on a free metrics port, its
 * output in a log file, and waits until /readyz answers (or fails with the log's path).
 */
export async function startService(
  name: string,
  args: readonly string[],
  opts: { readonly ready?: boolean; readonly script?: string; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const logFile = join(mkdtempSync(join(tmpdir(), `kcm-bus-${name}-`)), `${name}.log`);
  const out = createWriteStream(logFile);
  const launch = serviceLaunch(
    opts.script ?? serviceScript(name),
    [...args, '--metrics-bind-address', `127.0.0.1:${port}`],
    {
      ...process.env,
      ...opts.env,
    },
  );
  const child = spawn(launch.command, launch.args, { stdio: ['ignore', 'pipe', 'pipe'], env: launch.env });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const service: ServiceProcess = {
    process: child,
    metricsUrl: `http://127.0.0.1:${port}/metrics`,
    logFile,
    exited,
    stop: async (killAfterMs = STOP_KILL_MS) => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      started.delete(service);
      const kill = setTimeout(() => {
        console.error(`${name} did not exit ${killAfterMs} ms after SIGTERM: SIGKILL (log: ${logFile})`);
        child.kill('SIGKILL');
      }, killAfterMs);
      try {
        return await exited;
      } finally {
        clearTimeout(kill);
      }
    },
  };
  started.add(service);
  if (opts.ready !== false) {
    // Its own "started" line first: another process that holds the port would answer /readyz for it.
    const ownsPort = (): boolean => readFileSync(logFile, 'utf8').includes(`127.0.0.1:${port}/metrics`);
    const ready = waitFor(
      `${name} ready (log: ${logFile})`,
      async () => ownsPort() && (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok,
      { timeoutMs: 120_000 },
    );
    const died = exited.then((code) =>
      Promise.reject(new Error(`${name} exited with ${code} before it was ready; log: ${logFile}`)),
    );
    await Promise.race([ready, died]);
    died.catch(() => undefined);
  }
  return service;
}

/** freePort is a port nothing listens on now, from the kernel (the service binds it a moment later). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/**
 * inServiceScope runs `run` and then stops the services started meanwhile and not stopped yet, also when it fails: a
 * bench scenario's own, where stopAllServices would also stop the bench's watcher, which runs through every scenario.
 * They get SIGTERM (a profiled service writes its profile on exit), then SIGKILL after graceMs.
 */
export async function inServiceScope<T>(run: () => Promise<T>, graceMs = 30_000): Promise<T> {
  const before = new Set(started);
  try {
    return await run();
  } finally {
    const own = [...started].filter((s) => !before.has(s));
    await Promise.all(own.map((s) => s.stop(graceMs)));
  }
}

/** stopAllServices stops every service this process started and has not stopped (a test file's after() hook). */
export async function stopAllServices(): Promise<void> {
  await Promise.all(
    [...started].map((s) => {
      s.process.kill('SIGKILL');
      started.delete(s);
      return s.exited;
    }),
  );
}

/** metricValue reads a service's /metrics: the sum of a metric's samples with the given labels, 0 when none. */
export async function metricValue(
  service: ServiceProcess,
  name: string,
  labels: Readonly<Record<string, string>>,
): Promise<number> {
  return parseMetrics(await (await fetch(service.metricsUrl)).text())(name, labels);
}
