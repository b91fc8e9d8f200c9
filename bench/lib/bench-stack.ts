import { join } from 'node:path';
import { BESIDE_KCM_BUS, stackConfig, type StackConfig } from '@kcm-bus/stack/config.ts';
import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';
import { up } from '@kcm-bus/stack/stack.ts';
import { rawKube, type RawKube, untaintWhenReady } from '@kcm-bus/harness/kube.ts';
import { startService, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { knobValue, RUN } from './knobs.ts';
import { watcherFlags } from './systems.ts';

/** NODES are the bench stack's kwok nodes; SCHEDULER_QPS its kube-scheduler's, so that binding is never the bottleneck. */
export const NODES = 4;
export const SCHEDULER_QPS = 1000;

/**
 * backgroundControllers is what the bench stack's own kube-controller-manager runs under both arms. By default
 * nothing (no process), so that no controller's work (the garbage collector's graph over 10,000 pods) shares the two
 * cores with the arms being measured, and no node lifecycle controller acts beside the one S5 measures; the bench
 * makes its kwok nodes schedulable itself (untaintWhenReady). BENCH_BACKGROUND=full runs every controller kcm-bus
 * does not replace (BESIDE_KCM_BUS), as a cluster does: the upstream arm then runs the full set (that background plus
 * the controller it compares), and kcm-bus runs beside the same background. KCM_BUS_KCM_CONTROLLERS overrides both.
 */
export function backgroundControllers(): string {
  const controllers = knobValue(RUN.kcmControllers);
  if (controllers !== undefined) return controllers;
  const background = knobValue(RUN.background);
  if (background === 'full') return BESIDE_KCM_BUS;
  if (background === 'none') return '';
  throw new Error(`BENCH_BACKGROUND=${background}: none (the default) or full`);
}

/** benchStack is the bench stack's configuration: profile "bench" (KCM_BUS_BENCH_PROFILE), ports 17600+ (KCM_BUS_PORT_BASE). */
export function benchStack(): StackConfig {
  return stackConfig(knobValue(RUN.profile) ?? 'bench', {
    ...process.env,
    KCM_BUS_PORT_BASE: knobValue(RUN.portBase),
    KCM_BUS_NODES: String(NODES),
    KCM_BUS_SCHEDULER_QPS: String(SCHEDULER_QPS),
    KCM_BUS_KCM_CONTROLLERS: backgroundControllers(),
  });
}

/** Bench is the running bench stack: its endpoints, an admin API client and the watcher the bench runs throughout. */
export type Bench = { readonly e: StackEndpoints; readonly kube: RawKube; readonly watcher: ServiceProcess };

/** startBench brings the stack up, makes its kwok nodes schedulable and starts the watcher. */
export async function startBench(c: StackConfig): Promise<Bench> {
  const e = await up(c, (line) => console.error(line));
  const kube = rawKube(join(c.dir, 'endpoints.json'));
  await waitFor(
    `${NODES} kwok nodes`,
    async () => ((await kube('GET', '/api/v1/nodes'))['items'] as unknown[]).length >= NODES,
  );
  for (const node of (await kube('GET', '/api/v1/nodes'))['items'] as { metadata: { name: string } }[])
    await untaintWhenReady(kube, node.metadata.name);
  return { e, kube, watcher: await startService('watcher', watcherFlags(e)) };
}
