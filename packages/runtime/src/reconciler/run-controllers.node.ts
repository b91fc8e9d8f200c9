import { inputCounters } from '../consumer/input-counters.prom.ts';
import { deadLetterCounter } from '../faults/dead-letters.prom.ts';
import { serviceMain } from '../service/main.node.ts';
import { PromWorkqueueMetricsProvider } from '../workqueue/metrics.prom.ts';
import { type Declared, sealed } from '../controller/catalog-declaration.ts';
import type { ControllerDeclaration, Inputs } from '../controller/declaration.ts';
import { ControllerMetrics } from '../controller/metrics.prom.ts';
import { controllerFlags } from './controller-flags.ts';
import { prepareMember, serviceGroups, type Shared } from './members.node.ts';

/** runController runs one declared controller as a service (runControllers of one). */
export async function runController<L extends Inputs>(d: ControllerDeclaration<L>): Promise<void> {
  await runControllers([sealed(d)]);
}

/**
 * runControllers runs declared controllers as one service (all of one `service`): their stores fed from their input
 * topics by one consumer group that reads each input once for all of them (a singleton, one active member at a time,
 * in a group of its own), each controller's workers over a client-go workqueue, expectations in Redis when it keeps
 * them, its tick; the service serves /metrics, /healthz (every controller's workers run) and /readyz (every assigned
 * partition and global input synced), and stops gracefully on SIGTERM.
 */
export async function runControllers(ds: readonly Declared[]): Promise<void> {
  await serviceMain(ds[0]!.service, controllerFlags(ds), async (ctx) => {
    const shared: Shared = {
      metrics: new ControllerMetrics(ctx.registry),
      queues: new PromWorkqueueMetricsProvider(ctx.registry),
      deadLetters: deadLetterCounter(ctx.registry),
      inputs: inputCounters(ctx.registry),
    };
    const groupOf = serviceGroups(ctx, ds, shared);
    const members = ds.map((d) => d.open((declaration) => prepareMember(ctx, declaration, groupOf(d), shared)));
    const groups = [...new Set(ds.map(groupOf))];
    for (const g of groups) await g.start();
    const running = members.map((m) => m.run());
    const notReady = (): string | undefined => groups.map((g) => g.notReady()).find((r) => r !== undefined);
    return {
      probes: {
        healthy: () => running.every((m) => m.working()),
        ready: () => notReady() === undefined,
        notReadyReason: notReady,
      },
      stop: async () => {
        for (const m of running) await m.stop();
        for (const g of groups) await g.stop();
        for (const m of members) m.disconnect();
      },
    };
  });
}
