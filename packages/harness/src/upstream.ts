import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateAll } from '@kcm-bus/stack/obtain-all.ts';
import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';

/** Upstream is a running upstream kube-controller-manager with only the chosen controllers enabled. */
export type Upstream = {
  readonly process: ChildProcess;
  readonly logFile: string;
  readonly exited: Promise<number | null>;
  /** metricsUrl is its /metrics (HTTPS, self-signed, open to anyone) when started with `metrics`. */
  readonly metricsUrl: string | undefined;
  readonly stop: () => Promise<void>;
};

/**
 * UpstreamOptions: client QPS, the controllers (default the ReplicationController's), leader election (default off),
 * whether to serve /metrics (default not: no serving port at all), and any further flags.
 */
export type UpstreamOptions = {
  readonly qps?: number;
  readonly burst?: number;
  readonly controllers?: string;
  readonly leaderElect?: boolean;
  readonly metrics?: boolean;
  /** flags are further kube-controller-manager flags (node lifecycle's periods in the node tests). */
  readonly flags?: readonly string[];
};

/** servingFlags serve /metrics without authentication on a free-looking port, its certificate in `dir`; or serve nothing. */
function servingFlags(
  metrics: boolean,
  dir: string,
): { readonly flags: string[]; readonly metricsUrl: string | undefined } {
  if (!metrics) return { flags: ['--secure-port=0'], metricsUrl: undefined };
  const port = 20000 + Math.floor(Math.random() * 2000);
  return {
    flags: [
      `--secure-port=${port}`,
      '--bind-address=127.0.0.1',
      `--cert-dir=${dir}`,
      '--authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics',
    ],
    metricsUrl: `https://127.0.0.1:${port}/metrics`,
  };
}

/**
 * startUpstream runs kube-controller-manager of the apiserver's version (from the stack's cache) against the stack
 * as admin, with only `controllers` enabled: the yardstick of the differential tests and the benchmarks. Its output
 * goes to a log file; stop() sends SIGTERM and waits.
 */
export function startUpstream(e: StackEndpoints, o: UpstreamOptions = {}): Upstream {
  const bin = join(locateAll().dirs.get('kube-controller-manager') ?? '', 'bin', 'kube-controller-manager');
  const dir = mkdtempSync(join(tmpdir(), 'kcm-bus-upstream-'));
  const logFile = join(dir, 'kube-controller-manager.log');
  const serving = servingFlags(o.metrics ?? false, dir);
  const child = spawn(
    bin,
    [
      '--kubeconfig',
      e.kubeconfig,
      `--leader-elect=${o.leaderElect ?? false}`,
      ...serving.flags,
      '--use-service-account-credentials=false',
      `--controllers=${o.controllers ?? 'replicationcontroller-controller'}`,
      `--kube-api-qps=${o.qps ?? 20}`,
      `--kube-api-burst=${o.burst ?? 30}`,
      ...(o.flags ?? []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const out = createWriteStream(logFile);
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return {
    process: child,
    logFile,
    exited,
    metricsUrl: serving.metricsUrl,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** withUpstream runs `script` while an upstream kube-controller-manager of these options runs, and stops it after, failed or not. */
export async function withUpstream<T>(e: StackEndpoints, o: UpstreamOptions, script: () => Promise<T>): Promise<T> {
  const upstream = startUpstream(e, o);
  try {
    return await script();
  } finally {
    await upstream.stop();
  }
}
