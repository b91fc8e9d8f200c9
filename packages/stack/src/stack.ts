import { mkdirSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { StackConfig } from './config.ts';
import { obtainAll } from './obtain-all.ts';
import { apiserverUrl, controlParts, dataParts, type Part } from './parts.ts';
import { ensurePki, tlsClient } from './pki.ts';
import { ensureSigningKeys } from './signing.ts';
import { writeKubeconfigs } from './kube-access.ts';
import { bootstrapRbac, registerNodes } from './bootstrap.ts';
import { runningPid, stopProcess } from './procs.ts';
import { startPart } from './start.ts';
import { KAFKA_PARTS } from './kafka-nodes.ts';
import { finalizeKafkaUpgrade } from './kafka-upgrade.ts';
import { stackEndpoints, type StackEndpoints } from './endpoints.ts';

/**
 * up obtains every part (building what the cache lacks), starts what is not running, waits until each is ready,
 * finalizes a Kafka upgrade its storage is in the middle of, and returns where everything is. The kube chain (etcd →
 * apiserver → scheduler, controller manager, kwok) and the bus parts (Kafka, registry, Redis) come up side by side.
 */
export async function up(c: StackConfig, say: (line: string) => void): Promise<StackEndpoints> {
  const binaries = await obtainAll(say);
  mkdirSync(c.dir, { recursive: true });
  await ensurePki(c.dir);
  ensureSigningKeys(c.dir);
  writeKubeconfigs(c.dir, apiserverUrl(c));
  const data = dataParts(c, binaries);
  const [etcd, ...bus] = data;
  const control = controlParts(c, binaries).filter(
    (p) => p.name !== 'kube-controller-manager' || c.kcmControllers.length > 0,
  );
  const [apiserver, ...rest] = control;
  const kube = async (): Promise<void> => {
    if (etcd) await startPart(c, etcd, say);
    if (apiserver) await startPart(c, apiserver, say);
    await bootstrapRbac(apiserverUrl(c), tlsClient(c.dir, 'admin'));
    await all(rest.map((p) => startPart(c, p, say)));
    await registerNodes(apiserverUrl(c), tlsClient(c.dir, 'admin'), c.nodes);
  };
  await all([kube(), ...bus.map((p) => startPart(c, p, say))]);
  const upgradedFrom = await finalizeKafkaUpgrade(c, binaries);
  if (upgradedFrom) say(`kafka: upgrade from ${upgradedFrom} finalized (kafka-features upgrade --release-version)`);
  const endpoints = stackEndpoints(c);
  writeFileSync(join(c.dir, 'endpoints.json'), `${JSON.stringify(endpoints, null, 2)}\n`);
  return endpoints;
}

/** all waits for every promise and then fails with every error, so no start is left running unawaited. */
async function all(promises: readonly Promise<unknown>[]): Promise<void> {
  const results = await Promise.allSettled(promises);
  const errors = results.flatMap((r) =>
    r.status === 'rejected' ? [r.reason instanceof Error ? r.reason.message : String(r.reason)] : [],
  );
  if (errors.length > 0) throw new Error(errors.join('\n\n'));
}

/**
 * down stops every process this stack instance started (its parts and any service `run` added), by the
 * pids it recorded; one part having crashed does not keep the others running. `purge` removes its state.
 */
export async function down(c: StackConfig, opts: { readonly purge?: boolean } = {}): Promise<string[]> {
  const names = recordedParts(c);
  const first = names.filter((n) => !DATA_NAMES.has(n));
  const stopped = [
    ...(await stopAll(c, first)),
    ...(await stopAll(
      c,
      names.filter((n) => DATA_NAMES.has(n)),
    )),
  ];
  if (opts.purge) rmSync(c.dir, { recursive: true, force: true });
  return stopped;
}

/** DATA_NAMES are stopped last: every Kafka node a stack can run, whatever this configuration says it runs. */
const DATA_NAMES = new Set(['etcd', ...KAFKA_PARTS, 'registry', 'redis']);

async function stopAll(c: StackConfig, names: readonly string[]): Promise<string[]> {
  const done = await Promise.all(names.map(async (n) => ((await stopProcess(c.dir, n)) ? n : undefined)));
  return done.filter((n): n is string => n !== undefined);
}

/** recordedParts are the parts (and services) whose pids this stack instance recorded. */
export function recordedParts(c: StackConfig): string[] {
  const dir = join(c.dir, 'pids');
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.pid'))
        .map((f) => f.slice(0, -4))
    : [];
}

/** PartStatus is one line of `status`. */
export type PartStatus = { readonly name: string; readonly pid: number | undefined; readonly ready: boolean };

/** status reports every part of the stack: its pid when running and whether its readiness probe passes. */
export async function status(c: StackConfig, parts: readonly Part[]): Promise<PartStatus[]> {
  return Promise.all(
    parts.map(async (p) => {
      const pid = runningPid(c.dir, p.name);
      return { name: p.name, pid, ready: pid !== undefined && (await p.ready()) };
    }),
  );
}
