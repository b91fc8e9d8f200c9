/**
 * `npm run bench` — S1: an RC scaled 0 → N (default 1000) under upstream kube-controller-manager
 * (--controllers=replicationcontroller-controller) and under kcm-bus (watcher, writer, reconciler-rc), at the
 * default --kube-api-qps=20/--kube-api-burst=30 and at 1000/1000, beside the ceiling (a plain client-node loop
 * creating N pods, 64 in flight). One run on one machine, its own stack (profile "bench", ports 17600+, 4 kwok
 * nodes, kube-scheduler at 1000 qps so binding is never the bottleneck), stopped at the end. Prints the table
 * and writes bench/out/s1.json and one SVG plot per QPS setting.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { stackConfig } from '@kcm-bus/stack/config.ts';
import { locateAll } from '@kcm-bus/stack/obtain-all.ts';
import { down, up } from '@kcm-bus/stack/stack.ts';
import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';
import { startService, stopAllServices } from '../test/support/processes.ts';
import { rawKube, type RawKube } from '../test/support/stack.ts';
import { waitFor } from '../test/support/wait.ts';
import { samplePods, svgPlot, type Sample } from './pods-over-time.ts';

const N = Number(process.env['BENCH_PODS'] ?? 1000);
const OUT = resolve(import.meta.dirname, 'out');
const c = stackConfig('bench', { ...process.env, KCM_BUS_PORT_BASE: process.env['KCM_BUS_PORT_BASE'] ?? '17600', KCM_BUS_NODES: '4', KCM_BUS_SCHEDULER_QPS: '1000' });
type Run = { readonly exist?: number; readonly running?: number; readonly series: Sample[] };

function rc(name: string): Record<string, unknown> {
  return { metadata: { name }, spec: { replicas: N, selector: { app: name }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
}

async function scaleRun(kube: RawKube, ns: string): Promise<Run> {
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const started = performance.now();
  await kube('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, rc('s1'));
  const run = await samplePods(kube, ns, N, started, 600_000);
  await cleanUp(kube, [`/api/v1/namespaces/${ns}/replicationcontrollers/s1?propagationPolicy=Orphan`, `/api/v1/namespaces/${ns}/pods?gracePeriodSeconds=0`]);
  return run;
}

/** cleanUp deletes what a scenario made (the stack has no namespace controller); a failure is reported, not fatal. */
async function cleanUp(kube: RawKube, paths: readonly string[]): Promise<void> {
  for (const path of paths) await kube('DELETE', path).catch((err: unknown) => console.error(`clean-up of ${path} failed: ${String(err)}`));
}

async function upstream(kube: RawKube, e: StackEndpoints, ns: string, qps: number, burst: number): Promise<Run> {
  const bin = join(locateAll().dirs.get('kube-controller-manager') ?? '', 'bin', 'kube-controller-manager');
  const kcm = spawn(bin, ['--kubeconfig', e.kubeconfig, '--leader-elect=false', '--secure-port=0', '--use-service-account-credentials=false',
    '--controllers=replicationcontroller-controller', `--kube-api-qps=${qps}`, `--kube-api-burst=${burst}`], { stdio: 'ignore' });
  try {
    return await scaleRun(kube, ns);
  } finally {
    kcm.kill('SIGTERM');
  }
}

async function kcmBus(kube: RawKube, e: StackEndpoints, ns: string, qps: number, burst: number): Promise<Run> {
  const bus = ['--kafka-brokers', e.kafkaBootstrap, '--schema-registry-url', e.registry];
  const writer = await startService('writer', [...bus, '--kubeconfig', e.kubeconfigs.writer, `--kube-api-qps=${qps}`, `--kube-api-burst=${burst}`, '--concurrency=64']);
  const reconciler = await startService('reconciler-rc', [...bus, '--redis-url', e.redis]);
  try {
    return await scaleRun(kube, ns);
  } finally {
    await reconciler.stop();
    await writer.stop();
  }
}

async function ceiling(kube: RawKube, e: StackEndpoints, ns: string): Promise<Run> {
  const kc = new KubeConfig();
  kc.loadFromFile(e.kubeconfig);
  const core = kc.makeApiClient(CoreV1Api);
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const started = performance.now();
  let next = 0;
  const sampling = samplePods(kube, ns, N, started, 600_000);
  await Promise.all(Array.from({ length: 64 }, async () => {
    while (next < N) await core.createNamespacedPod({ namespace: ns, body: { metadata: { name: `plain-${next++}`, labels: { app: 'plain' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
  }));
  const run = await sampling;
  await cleanUp(kube, [`/api/v1/namespaces/${ns}/pods?gracePeriodSeconds=0`]);
  return run;
}

async function main(): Promise<void> {
  const e = await up(c, (line) => console.error(line));
  process.env['KCM_BUS_TEST_STACK'] = join(c.dir, 'endpoints.json');
  const kube = rawKube();
  await waitFor('4 schedulable kwok nodes', async () => ((await kube('GET', '/api/v1/nodes'))['items'] as { spec?: { taints?: unknown[] } }[]).filter((n) => !(n.spec?.taints ?? []).length).length >= 4);
  await startService('watcher', ['--kafka-brokers', e.kafkaBootstrap, '--schema-registry-url', e.registry, '--kubeconfig', e.kubeconfigs.watcher]);
  const run = `s1-${Date.now().toString(36)}`;
  const results: Record<string, Run> = {};
  for (const [qps, burst] of [[20, 30], [1000, 1000]] as const) {
    results[`upstream ${qps}/${burst}`] = await upstream(kube, e, `${run}-up-${qps}`, qps, burst);
    results[`kcm-bus ${qps}/${burst}`] = await kcmBus(kube, e, `${run}-bus-${qps}`, qps, burst);
    mkdirSync(OUT, { recursive: true });
    writeFileSync(join(OUT, `s1-${qps}-${burst}.svg`), svgPlot(`S1: RC 0 → ${N} pods at --kube-api-qps=${qps} --kube-api-burst=${burst}`, [
      { name: 'upstream kube-controller-manager', color: '#1f77b4', series: results[`upstream ${qps}/${burst}`]?.series ?? [] },
      { name: 'kcm-bus', color: '#d62728', series: results[`kcm-bus ${qps}/${burst}`]?.series ?? [] },
    ]));
  }
  results['ceiling: plain client-node loop, 64 in flight'] = await ceiling(kube, e, `${run}-plain`);
  report(results);
}

function report(results: Record<string, Run>): void {
  const f = (s: number | undefined): string => (s === undefined ? 'timeout' : `${s.toFixed(1)} s`);
  console.log(`\nS1: RC 0 -> ${N} pods, ${new Date().toISOString()}, ${cpus().length} cores`);
  console.log(`${'scenario'.padEnd(34)} ${'upstream'.padStart(10)} ${'kcm-bus'.padStart(10)} ${'ratio'.padStart(7)}`);
  for (const [qps, burst] of [[20, 30], [1000, 1000]]) {
    for (const what of ['exist', 'running'] as const) {
      const u = results[`upstream ${qps}/${burst}`]?.[what];
      const b = results[`kcm-bus ${qps}/${burst}`]?.[what];
      console.log(`${`${N} pods ${what} at ${qps}/${burst}`.padEnd(34)} ${f(u).padStart(10)} ${f(b).padStart(10)} ${(u && b ? (b / u).toFixed(2) : '-').padStart(7)}`);
    }
  }
  const ceil = results['ceiling: plain client-node loop, 64 in flight'];
  console.log(`ceiling (plain client-node loop, 64 in flight): ${f(ceil?.exist)} to exist, ${f(ceil?.running)} to run`);
  writeFileSync(join(OUT, 's1.json'), `${JSON.stringify({ pods: N, at: new Date().toISOString(), cores: cpus().length, schedulerQps: c.schedulerQps, results }, null, 2)}\n`);
}

try {
  await main();
} finally {
  await stopAllServices();
  await down(c, { purge: true });
}
