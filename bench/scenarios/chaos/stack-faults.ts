import { restartPart, type RestartOptions } from '@kcm-bus/harness/restart.ts';
import { compactEtcd } from '@kcm-bus/harness/etcd.ts';
import type { BenchContext } from '../../lib/scenario.ts';

/**
 * StackFaults are the faults of the parts the systems stand on, injected the same way under either arm of a chaos
 * run: a part of the bench stack restarted (a broker, the registry, Redis, the apiserver), or a 410 storm.
 */
export class StackFaults {
  readonly #ctx: BenchContext;

  constructor(ctx: BenchContext) {
    this.#ctx = ctx;
  }

  /** dir is the bench stack's run folder (where Redis keeps its files). */
  get dir(): string {
    return this.#ctx.stack.dir;
  }

  /** restartPart restarts a part of the bench stack (packages/harness/src/restart.ts): a broker, the registry, Redis, the apiserver. */
  async restartPart(name: string, o: RestartOptions = {}): Promise<void> {
    await restartPart(this.#ctx.stack, name, o);
    this.#ctx.log(`chaos: ${name} restarted`);
  }

  /**
   * storm410 compacts etcd up to its current revision and restarts kube-apiserver, `times` times: every watch
   * resumed meets 410 Gone (its resourceVersion is older than the new watch cache and compacted away), so every
   * informer (upstream's) or the watcher (kcm-bus's) relists every kind, and the relists meet the next restart.
   */
  async storm410(times: number): Promise<void> {
    for (let i = 0; i < times; i++) await this.gone();
    this.#ctx.log(`chaos: ${times} × (etcd compacted, kube-apiserver restarted)`);
  }

  /** gone compacts etcd up to its current revision and restarts kube-apiserver: every watch resumed after it meets 410 Gone. */
  async gone(): Promise<void> {
    await compactEtcd(this.#ctx.e.etcd);
    await restartPart(this.#ctx.stack, 'kube-apiserver');
  }
}
