/**
 * `npm run bench:writer` — writes per second through the writer (at kube-controller-manager's default
 * --kube-api-qps=20 --kube-api-burst=30, and uncapped) beside the ceiling: a plain @kubernetes/client-node
 * loop creating the same pods straight against the apiserver, 64 requests in flight. One run, one machine,
 * its own stack (profile "bench", ports 17600+), stopped at the end.
 */
import { cpus } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { busFlags, type StackEndpoints } from '@kcm-bus/stack/endpoints.ts';
import { stackConfig } from '@kcm-bus/stack/config.ts';
import { down, up } from '@kcm-bus/stack/stack.ts';
import { metricValue, startService, stopAllServices } from '@kcm-bus/harness/processes.ts';
import { ownerRc, podCreate, produceMutations } from '@kcm-bus/harness/mutations.ts';
import { rawKube } from '@kcm-bus/harness/kube.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const N = Number(process.env['BENCH_PODS'] ?? 1000);
const c = stackConfig('bench', {
  ...process.env,
  KCM_BUS_PORT_BASE: process.env['KCM_BUS_PORT_BASE'] ?? '17600',
  KCM_BUS_NODES: '0',
});

async function plainLoop(core: CoreV1Api, ns: string, inFlight: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < N) {
      const name = `plain-${next++}`;
      const body: V1Pod = {
        metadata: { name },
        spec: { nodeName: 'nowhere', containers: [{ name: 'c', image: 'busybox' }] },
      };
      await core.createNamespacedPod({ namespace: ns, body });
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return (performance.now() - started) / 1000;
}

async function throughWriter(e: StackEndpoints, ns: string, flags: readonly string[]): Promise<number> {
  const owner = await ownerRc(rawKube(join(c.dir, 'endpoints.json')), ns);
  const writer = await startService('writer', ['--kubeconfig', e.kubeconfigs.writer, ...busFlags(e), ...flags]);
  const batch = Array.from({ length: N }, (_, i) => podCreate(ns, `w-${i}`, owner));
  const started = performance.now();
  await produceMutations(e, batch);
  await waitFor(
    `${N} applied creates`,
    async () =>
      (await metricValue(writer, 'kcm_bus_writer_mutations_total', { verb: 'Create', outcome: 'Applied' })) >= N,
    { timeoutMs: 600_000, intervalMs: 50 },
  );
  const seconds = (performance.now() - started) / 1000;
  await writer.stop();
  return seconds;
}

async function main(): Promise<void> {
  const log = (line: string): void => console.error(line);
  const endpoints = await up(c, log);
  const kc = new KubeConfig();
  kc.loadFromFile(endpoints.kubeconfig);
  const core = kc.makeApiClient(CoreV1Api);
  const ns = (name: string): Promise<unknown> => core.createNamespace({ body: { metadata: { name } } });
  const run = `b${Date.now().toString(36)}`;
  for (const n of ['plain', 'default', 'uncapped']) await ns(`${run}-${n}`);
  const rows: [string, number][] = [];
  rows.push(['plain client-node loop, 64 in flight (ceiling)', await plainLoop(core, `${run}-plain`, 64)]);
  rows.push([
    'writer, --kube-api-qps=20 --kube-api-burst=30 (default)',
    await throughWriter(endpoints, `${run}-default`, []),
  ]);
  rows.push([
    'writer, uncapped (--kube-api-qps=-1), 64 in flight',
    await throughWriter(endpoints, `${run}-uncapped`, ['--kube-api-qps=-1', '--concurrency=64']),
  ]);
  console.log(`\n${N} pod creates, ${new Date().toISOString()}, ${cpus().length} cores`);
  console.log(`${'path'.padEnd(60)} ${'seconds'.padStart(8)} ${'creates/s'.padStart(10)}`);
  for (const [name, s] of rows)
    console.log(`${name.padEnd(60)} ${s.toFixed(1).padStart(8)} ${(N / s).toFixed(1).padStart(10)}`);
}

try {
  await main();
} finally {
  await stopAllServices();
  await down(c, { purge: true });
}
