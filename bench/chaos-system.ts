import { setTimeout as sleep } from 'node:timers/promises';
import { startService, type ServiceProcess } from '../test/support/processes.ts';
import { restartPart, type RestartOptions } from '../test/support/restart.ts';
import { waitFor } from '../test/support/wait.ts';
import { childPid, running } from './probes.ts';
import type { BenchContext } from './scenario.ts';
import { reconcilerFlags, watcherFlags, writerFlags } from './systems.ts';

/** PAUSE_S is how long a SIGSTOPped service stays stopped: longer than the group session (6 s), so its partitions move. */
export const PAUSE_S = 15;

/** Victim is a service a fault hits; 'reconciler-rc' is the first of the two members. */
export type Victim = 'watcher' | 'writer' | 'reconciler-rc';

/** Target is a service's current process: one the chaos run started, or the bench's own watcher (by pid). */
type Target = { readonly pid: number; readonly service: ServiceProcess | undefined };

const QPS = { qps: 20, burst: 30 };

/**
 * ChaosSystem is the kcm-bus under a chaos run: the bench's watcher, a writer and two reconciler-rc members. kill
 * SIGKILLs a service and starts its replacement with the same flags once it exited; pause SIGSTOPs it for PAUSE_S
 * and lets it go on (SIGCONT). stop stops what the run started; the bench stops its watcher, or its replacement.
 */
export class ChaosSystem {
  readonly #ctx: BenchContext;
  readonly #targets: Map<Victim, Target>;
  readonly #others: ServiceProcess[];

  private constructor(ctx: BenchContext, targets: Map<Victim, Target>, others: ServiceProcess[]) {
    this.#ctx = ctx;
    this.#targets = targets;
    this.#others = others;
  }

  static async start(ctx: BenchContext): Promise<ChaosSystem> {
    const writer = await startService('writer', writerFlags(ctx.e, QPS));
    const first = await startService('reconciler-rc', reconcilerFlags(ctx.e));
    const second = await startService('reconciler-rc', reconcilerFlags(ctx.e));
    const targets = new Map<Victim, Target>([
      ['watcher', { pid: childPid('services/watcher/src/main.ts'), service: undefined }],
      ['writer', { pid: writer.process.pid ?? 0, service: writer }],
      ['reconciler-rc', { pid: first.process.pid ?? 0, service: first }],
    ]);
    return new ChaosSystem(ctx, targets, [second]);
  }

  /** kill SIGKILLs the victim, waits for it to exit and starts a replacement (ready when this resolves). */
  async kill(victim: Victim): Promise<void> {
    const target = this.#target(victim);
    process.kill(target.pid, 'SIGKILL');
    await waitFor(`${victim} (pid ${target.pid}) to exit`, () => !running(target.pid) || undefined, { intervalMs: 20, timeoutMs: 30_000 });
    const flags = { watcher: watcherFlags(this.#ctx.e), writer: writerFlags(this.#ctx.e, QPS), 'reconciler-rc': reconcilerFlags(this.#ctx.e) }[victim];
    const service = await startService(victim, flags);
    this.#targets.set(victim, { pid: service.process.pid ?? 0, service });
    this.#ctx.log(`chaos: ${victim} killed and restarted`);
  }

  /** pause stops the victim (SIGSTOP) for PAUSE_S and lets it go on (SIGCONT): a member stalled past its session. */
  async pause(victim: Victim): Promise<void> {
    const { pid } = this.#target(victim);
    process.kill(pid, 'SIGSTOP');
    try {
      await sleep(PAUSE_S * 1000);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    this.#ctx.log(`chaos: ${victim} stopped ${PAUSE_S} s and continued`);
  }

  /** stackDir is the bench stack's run folder (where Redis keeps its files). */
  get stackDir(): string {
    return this.#ctx.stack.dir;
  }

  /** restartPart restarts a part of the bench stack (test/support/restart.ts): a broker, the registry, Redis, the apiserver. */
  async restartPart(name: string, o: RestartOptions = {}): Promise<void> {
    await restartPart(this.#ctx.stack, name, o);
    this.#ctx.log(`chaos: ${name} restarted`);
  }

  /** stop stops the services this run started (SIGTERM); a replacement watcher is stopped too. */
  async stop(): Promise<void> {
    for (const target of this.#targets.values()) await target.service?.stop();
    for (const service of this.#others) await service.stop();
  }

  #target(victim: Victim): Target {
    const target = this.#targets.get(victim);
    if (!target) throw new Error(`no ${victim} in the chaos system`);
    return target;
  }
}
