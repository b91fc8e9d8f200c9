import { setTimeout as sleep } from 'node:timers/promises';
import { startService, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { scrape, terminate } from '../../lib/probes.ts';
import type { BenchContext } from '../../lib/scenario.ts';
import { busFlags } from '@kcm-bus/stack/endpoints.ts';
import { benchWatcherPid, reconcilerFlags, watcherFlags, writerFlags } from '../../lib/systems.ts';
import { StackFaults } from './stack-faults.ts';

/** PAUSE_S is how long a SIGSTOPped service stays stopped: longer than the group session (6 s), so its partitions move. */
export const PAUSE_S = 15;

/** Victim is a service a fault hits: the first replica of it. */
export type Victim = 'watcher' | 'writer' | 'reconciler-rc' | 'reconciler-endpoint' | 'reconciler-node';

/** VICTIMS are the services of the system, each a victim of "kill -9 one replica of each service". */
export const VICTIMS: readonly Victim[] = [
  'watcher',
  'writer',
  'reconciler-rc',
  'reconciler-endpoint',
  'reconciler-node',
];

/**
 * Slot is one running service of the system: a victim (its first replica) or a second replica, `<service> 2`.
 * reconciler-endpoint's and reconciler-node's outcomes (Endpoints right, no healthy node tainted) each cycle checks.
 */
export type Slot = Victim | `${Victim} 2`;

/**
 * slots are the services the system runs: one of each and a second reconciler-rc member on a single broker, two of
 * each but the watcher where the stack runs two replicas of the services (the cluster profile's shape).
 */
function slots(replicas: 1 | 2): readonly Slot[] {
  const seconds: readonly Slot[] =
    replicas === 2 ? VICTIMS.filter((v) => v !== 'watcher').map((v) => `${v} 2` as const) : ['reconciler-rc 2'];
  return [...VICTIMS, ...seconds];
}

const QPS = { qps: 20, burst: 30 };

/**
 * ChaosSystem is the kcm-bus under a chaos run: a watcher (in place of the bench's), a writer, two reconciler-rc
 * members, reconciler-endpoint and reconciler-node (on a stack of two service replicas, two of each but the watcher),
 * each supervised as a Deployment would be: a service that exits on its own is started again with the same flags, and
 * counted (restarts). kill SIGKILLs a service and starts its replacement once it exited; pause SIGSTOPs it
 * for PAUSE_S and lets it go on (SIGCONT); crashInRelist kills the watcher mid-relist; stop stops every service.
 */
export class ChaosSystem {
  readonly #ctx: BenchContext;
  /** stack injects the faults of the parts the system stands on. */
  readonly stack: StackFaults;
  readonly #services = new Map<Slot, ServiceProcess>();
  readonly #killed = new Set<ServiceProcess>();
  #stopping = false;
  #restarts = 0;

  private constructor(ctx: BenchContext) {
    this.#ctx = ctx;
    this.stack = new StackFaults(ctx);
  }

  static async start(ctx: BenchContext): Promise<ChaosSystem> {
    const system = new ChaosSystem(ctx);
    await terminate(benchWatcherPid());
    for (const slot of slots(ctx.stack.serviceReplicas)) await system.#run(slot);
    return system;
  }

  /** restarts counts the services that exited on their own and were started again. */
  get restarts(): number {
    return this.#restarts;
  }

  /** running is every service of the system now running, by slot (a killed one's replacement once it started). */
  running(): ReadonlyMap<Slot, ServiceProcess> {
    return this.#services;
  }

  /** kill SIGKILLs the victim, waits for it to exit and starts a replacement (ready when this resolves). */
  async kill(victim: Victim): Promise<void> {
    const service = this.#service(victim);
    this.#killed.add(service);
    service.process.kill('SIGKILL');
    await service.exited;
    await this.#run(victim);
    this.#ctx.log(`chaos: ${victim} killed and restarted`);
  }

  /** pause stops the victim (SIGSTOP) for PAUSE_S and lets it go on (SIGCONT): a member stalled past its session. */
  async pause(victim: Victim): Promise<void> {
    const pid = this.#service(victim).process.pid ?? 0;
    process.kill(pid, 'SIGSTOP');
    try {
      await sleep(PAUSE_S * 1000);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    this.#ctx.log(`chaos: ${victim} stopped ${PAUSE_S} s and continued`);
  }

  /**
   * crashInRelist makes the watcher relist (etcd compacted, kube-apiserver restarted: 410 Gone) and kills it (-9) the
   * moment it reports the pods' relist, which it does when the list is in and before it is published: the crash point
   * between a relist's list and its transaction (a ghost there would be a deleted pod the topic still holds).
   */
  async crashInRelist(): Promise<void> {
    const watcher = this.#service('watcher');
    const relists = async (): Promise<number> =>
      (await scrape(watcher.metricsUrl))('kcm_bus_watcher_relists_total', { kind: 'Pod' });
    const before = await relists();
    await this.stack.gone();
    await waitFor('the watcher to relist the pods', async () => (await relists()) > before, {
      intervalMs: 5,
      timeoutMs: 120_000,
    });
    await this.kill('watcher');
  }

  /** stop stops every service of the system (SIGTERM), none restarted. */
  async stop(): Promise<void> {
    this.#stopping = true;
    for (const service of this.#services.values()) await service.stop();
  }

  async #run(slot: Slot): Promise<void> {
    const name = slot.replace(/ 2$/, '') as Victim;
    const flags = {
      watcher: watcherFlags(this.#ctx.e),
      writer: writerFlags(this.#ctx.e, QPS),
      'reconciler-rc': reconcilerFlags(this.#ctx.e),
      'reconciler-endpoint': busFlags(this.#ctx.e),
      'reconciler-node': busFlags(this.#ctx.e),
    }[name];
    const service = await startService(name, flags);
    this.#services.set(slot, service);
    void service.exited.then(() => this.#exited(slot, service));
  }

  /** #exited restarts a service that exited on its own (not killed by the run, not stopping), as a Deployment would. */
  async #exited(slot: Slot, service: ServiceProcess): Promise<void> {
    if (this.#stopping || this.#killed.delete(service)) return;
    this.#restarts++;
    this.#ctx.log(`chaos: ${slot} exited on its own (log: ${service.logFile}); started again`);
    await this.#run(slot).catch((err: unknown) =>
      this.#ctx.log(`chaos: ${slot} could not be started again: ${String(err)}`),
    );
  }

  #service(victim: Victim): ServiceProcess {
    const service = this.#services.get(victim);
    if (!service) throw new Error(`no ${victim} in the chaos system`);
    return service;
  }
}
