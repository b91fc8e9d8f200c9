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
  readonly stop: () => Promise<void>;
};

/** UpstreamOptions: client QPS, the controllers (default the ReplicationController's) and leader election (default off). */
export type UpstreamOptions = { readonly qps?: number; readonly burst?: number; readonly controllers?: string; readonly leaderElect?: boolean };

/**
 * startUpstream runs kube-controller-manager of the apiserver's version (from the stack's cache) against the stack
 * as admin, with only `controllers` enabled: the yardstick of the differential tests and the benchmarks. Its output
 * goes to a log file; stop() sends SIGTERM and waits.
 */
export function startUpstream(e: StackEndpoints, o: UpstreamOptions = {}): Upstream {
  const bin = join(locateAll().dirs.get('kube-controller-manager') ?? '', 'bin', 'kube-controller-manager');
  const logFile = join(mkdtempSync(join(tmpdir(), 'kcm-bus-upstream-')), 'kube-controller-manager.log');
  const child = spawn(bin, ['--kubeconfig', e.kubeconfig, `--leader-elect=${o.leaderElect ?? false}`, '--secure-port=0',
    '--use-service-account-credentials=false', `--controllers=${o.controllers ?? 'replicationcontroller-controller'}`,
    `--kube-api-qps=${o.qps ?? 20}`, `--kube-api-burst=${o.burst ?? 30}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  const out = createWriteStream(logFile);
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return {
    process: child, logFile, exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
