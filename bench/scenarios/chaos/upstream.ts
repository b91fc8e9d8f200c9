import { startUpstream, type Upstream } from '@kcm-bus/harness/upstream.ts';
import { StackFaults } from './stack-faults.ts';
import type { BenchContext } from '../../lib/scenario.ts';

/** CONTROLLERS are upstream's counterparts of the chaos system's reconcilers (replication, endpoints, node lifecycle and taint eviction). */
const CONTROLLERS =
  'replicationcontroller-controller,endpoints-controller,node-lifecycle-controller,taint-eviction-controller';

/**
 * UpstreamChaos is the upstream arm of a chaos run: kube-controller-manager of the apiserver's version running the
 * controllers the chaos system replaces, at the same 20/30 QPS, supervised as the services are (started again when
 * it exits on its own, and counted). Only the stack's faults apply to it (stack).
 */
export class UpstreamChaos {
  readonly #ctx: BenchContext;
  readonly stack: StackFaults;
  #kcm: Upstream;
  #stopping = false;
  #restarts = 0;

  private constructor(ctx: BenchContext) {
    this.#ctx = ctx;
    this.stack = new StackFaults(ctx);
    this.#kcm = this.#run();
  }

  static start(ctx: BenchContext): UpstreamChaos {
    return new UpstreamChaos(ctx);
  }

  /** restarts counts the times kube-controller-manager exited on its own and was started again. */
  get restarts(): number {
    return this.#restarts;
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    await this.#kcm.stop();
  }

  #run(): Upstream {
    const kcm = startUpstream(this.#ctx.e, { qps: 20, burst: 30, controllers: CONTROLLERS });
    void kcm.exited.then(() => {
      if (this.#stopping) return;
      this.#restarts++;
      this.#ctx.log(`chaos: kube-controller-manager exited on its own (log: ${kcm.logFile}); started again`);
      this.#kcm = this.#run();
    });
    return kcm;
  }
}
