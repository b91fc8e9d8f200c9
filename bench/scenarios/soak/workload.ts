import { rcManifest } from '@kcm-bus/harness/rc.ts';
import { endpointsRight, serviceManifest } from '../chaos/endpoints.ts';
import { watchOwnedPods, type OwnedPods } from '../../lib/owned-pods.ts';
import { cleanUpNamespace } from '../../lib/systems.ts';
import { scaleTo } from '../../lib/scale.ts';
import type { BenchContext } from '../../lib/scenario.ts';
import { overCreated, type Target } from './figures.ts';

type Kind = 'rc' | 'rs';

/** Controller is one RC or ReplicaSet of the soak, alone in its namespace behind a Service of its name. */
type Controller = {
  readonly ns: string;
  readonly path: string;
  readonly targets: Target[];
  readonly pods: OwnedPods;
};

const NAME = 'soak';
const PATHS: Readonly<Record<Kind, (ns: string) => string>> = {
  rc: (ns) => `/api/v1/namespaces/${ns}/replicationcontrollers`,
  rs: (ns) => `/apis/apps/v1/namespaces/${ns}/replicasets`,
};

/** rsManifest is a ReplicaSet of the same pods as rcManifest's. */
function rsManifest(replicas: number): Record<string, unknown> {
  const rc = rcManifest(NAME, replicas)['spec'] as Record<string, unknown>;
  return { metadata: { name: NAME }, spec: { ...rc, selector: { matchLabels: { app: NAME } } } };
}

/** mulberry32 is a small seeded random source, so that a soak's churn can be told again from its seed. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Workload is the soak's churn: `pairs` RCs and as many ReplicaSets, each in a namespace of its own behind a Service,
 * scaled at random between 0 and maxPods (step), a Service deleted and created again now and then (recreateService);
 * every pod they control followed by a watch (over-created), and the Services' Endpoints checked at the end.
 */
export class Workload {
  readonly #ctx: BenchContext;
  readonly #controllers: Controller[] = [];
  readonly #random: () => number;
  readonly #maxPods: number;
  readonly #started: number;

  private constructor(ctx: BenchContext, maxPods: number, seed: number, started: number) {
    this.#ctx = ctx;
    this.#maxPods = maxPods;
    this.#random = mulberry32(seed);
    this.#started = started;
  }

  /** create makes the namespaces, Services and controllers (at 0 replicas); t is counted from `started` (performance.now()). */
  static async create(ctx: BenchContext, pairs: number, maxPods: number, seed: number, started: number) {
    const w = new Workload(ctx, maxPods, seed, started);
    for (let i = 0; i < pairs; i++) for (const kind of ['rc', 'rs'] as const) await w.#add(kind, i);
    return w;
  }

  /** step scales one controller picked at random to a random size; it says which and to what. */
  async step(): Promise<string> {
    const c = this.#pick();
    const replicas = Math.floor(this.#random() * (this.#maxPods + 1));
    await this.#scale(c, replicas);
    return `${c.ns} → ${replicas}`;
  }

  /** recreateService deletes the Service of a controller picked at random and creates it again. */
  async recreateService(): Promise<string> {
    const c = this.#pick();
    await this.#ctx.kube('DELETE', `/api/v1/namespaces/${c.ns}/services/${NAME}`);
    await this.#ctx.kube('POST', `/api/v1/namespaces/${c.ns}/services`, serviceManifest(NAME));
    return `${c.ns}: Service recreated`;
  }

  /** scaleAll sets every controller to `replicas` (the end of the soak: 0). */
  async scaleAll(replicas: number): Promise<void> {
    for (const c of this.#controllers) await this.#scale(c, replicas);
  }

  /** converged tells whether every controller has its target's pods and status, and its Service's Endpoints are right. */
  async converged(): Promise<boolean> {
    for (const c of this.#controllers) {
      const want = c.targets.at(-1)?.replicas ?? 0;
      const status = (await this.#ctx.kube('GET', `${c.path}/${NAME}`))['status'] as { replicas?: number };
      if (c.pods.live() !== want || (status.replicas ?? 0) !== want) return false;
      if (!(await endpointsRight(this.#ctx.kube, c.ns, NAME))) return false;
    }
    return true;
  }

  /** overCreated is each namespace's most pods beyond what its controller was allowed (figures.ts). */
  overCreated(): Record<string, number> {
    return Object.fromEntries(this.#controllers.map((c) => [c.ns, overCreated(c.targets, c.pods.series)]));
  }

  /** live is each namespace's live pods now. */
  live(): Record<string, number> {
    return Object.fromEntries(this.#controllers.map((c) => [c.ns, c.pods.live()]));
  }

  /** remove stops following the pods and deletes what the soak created. */
  async remove(): Promise<void> {
    for (const c of this.#controllers) {
      c.pods.stop();
      await cleanUpNamespace(this.#ctx.kube, c.ns);
    }
  }

  async #add(kind: Kind, i: number): Promise<void> {
    const ns = `${this.#ctx.runId}-soak-${kind}-${i}`;
    await this.#ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    await this.#ctx.kube('POST', `/api/v1/namespaces/${ns}/services`, serviceManifest(NAME));
    const path = PATHS[kind](ns);
    const made = await this.#ctx.kube('POST', path, kind === 'rc' ? rcManifest(NAME, 0) : rsManifest(0));
    const meta = made['metadata'] as { uid: string; resourceVersion: string };
    const pods = watchOwnedPods(this.#ctx, ns, meta.uid, meta.resourceVersion, this.#started);
    this.#controllers.push({ ns, path, targets: [{ t: this.#now(), replicas: 0 }], pods });
  }

  /** #scale sets a controller's replicas, its new target counted from before the request (the controller may act at once). */
  async #scale(c: Controller, replicas: number): Promise<void> {
    const t = this.#now();
    await scaleTo(this.#ctx.kube, c.path, c.ns, NAME, replicas);
    c.targets.push({ t, replicas });
  }

  #pick(): Controller {
    return this.#controllers[Math.floor(this.#random() * this.#controllers.length)]!;
  }

  #now(): number {
    return (performance.now() - this.#started) / 1000;
  }
}
