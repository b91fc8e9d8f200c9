import { Agent, request, type AgentOptions, type RequestOptions } from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { partitionFor } from '@kcm-bus/runtime/partition/index.ts';
import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';
import { inParallel } from '@kcm-bus/harness/parallel.ts';
import type { BenchContext } from './scenario.ts';
import { rcManifest } from '@kcm-bus/harness/rc.ts';
import { cleanUpNamespace } from './systems.ts';

/** UNSCHEDULED is a scheduler name no scheduler answers to: such pods stay Pending and nothing touches them again. */
const UNSCHEDULED = 'kcm-bus-bench-unscheduled';

/** watchPartitions is the partition count of kcm.watch.pods (the watcher's --partitions when it created the topic). */
export function watchPartitions(e: StackEndpoints): Promise<number> {
  return kafkaBus({ brokers: e.kafkaBrokers, clientId: 'kcm-bus-bench' }).partitionCount('kcm.watch.pods');
}

/** spreadNamespaces names `count` namespaces `<prefix>-<i>`, picked so that they fall on the partitions in turn. */
export function spreadNamespaces(prefix: string, count: number, partitions: number): string[] {
  const names: string[] = [];
  for (let i = 0; names.length < count; i++) {
    if (partitionFor(`${prefix}-${i}`, partitions) === names.length % partitions) names.push(`${prefix}-${i}`);
  }
  return names;
}

/** PopulationOptions: the namespaces the RCs go to in turn, pods per RC, and whether the scheduler may place the pods. */
export type PopulationOptions = {
  readonly namespaces: readonly string[];
  readonly perRc: number;
  readonly scheduled: boolean;
};

type Rc = { readonly ns: string; readonly name: string; readonly uid: string };

type RcList = {
  items: {
    metadata: { generation?: number };
    spec: { replicas?: number };
    status?: { replicas?: number; observedGeneration?: number };
  }[];
};

const range = (from: number, to: number): number[] =>
  Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

/**
 * Population is many pods owned by RCs, made fast: the bench POSTs each RC and then its pods (64 requests in
 * flight), each pod labelled for its RC and carrying the RC as controller owner, as the RC controller makes
 * them, so both upstream and kcm-bus find the RCs satisfied and cache and own every pod.
 */
export class Population {
  readonly #ctx: BenchContext;
  readonly #o: PopulationOptions;
  readonly #rcs: Rc[] = [];

  constructor(ctx: BenchContext, o: PopulationOptions) {
    this.#ctx = ctx;
    this.#o = o;
  }

  /** pods is how many pods the population holds. */
  get pods(): number {
    return this.#rcs.length * this.#o.perRc;
  }

  /** rcs is how many RCs the population holds. */
  get rcs(): number {
    return this.#rcs.length;
  }

  /** grow adds RCs and their pods until the population holds at least `total` pods (the namespaces on first use). */
  async grow(total: number): Promise<void> {
    const started = performance.now();
    if (this.#rcs.length === 0)
      await inParallel(this.#o.namespaces, (ns) =>
        this.#ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: ns } }),
      );
    const added = await inParallel(range(this.#rcs.length, Math.ceil(total / this.#o.perRc)), (j) => this.#createRc(j));
    this.#rcs.push(...added);
    await inParallel(
      added.flatMap((rc) => range(0, this.#o.perRc).map((k) => ({ rc, k }))),
      ({ rc, k }) => this.#createPod(rc, k),
    );
    this.#ctx.log(
      `population: ${this.pods} pods in ${this.rcs} RCs over ${this.#o.namespaces.length} namespaces (${((performance.now() - started) / 1000).toFixed(1)} s for ${added.length * this.#o.perRc} pods)`,
    );
  }

  /** observed tells whether a controller has reported every RC: status.replicas as wanted, at the RC's generation. */
  async observed(): Promise<boolean> {
    const lists = await Promise.all(
      this.#o.namespaces.map(
        async (ns) =>
          (await this.#ctx.kube('GET', `/api/v1/namespaces/${ns}/replicationcontrollers`)) as unknown as RcList,
      ),
    );
    const rcs = lists.flatMap((l) => l.items);
    return (
      rcs.length === this.rcs &&
      rcs.every(
        (rc) => rc.status?.replicas === rc.spec.replicas && rc.status?.observedGeneration === rc.metadata.generation,
      )
    );
  }

  /**
   * annotate sets one annotation of every pod of the population to `value` by a merge PATCH (64 requests in flight
   * on kept-alive connections): one update, so one watch event and one record, per pod.
   */
  async annotate(key: string, value: string): Promise<void> {
    const patch = await mergePatcher(this.#ctx.e.kubeconfig);
    const body = JSON.stringify({ metadata: { annotations: { [key]: value } } });
    const pods = this.#rcs.flatMap((rc) =>
      range(0, this.#o.perRc).map((k) => `/api/v1/namespaces/${rc.ns}/pods/${rc.name}-${k}`),
    );
    try {
      await inParallel(pods, (path) => patch(path, body));
    } finally {
      patch.close();
    }
  }

  /** cleanUp deletes the population's RCs and pods. */
  async cleanUp(): Promise<void> {
    for (const ns of this.#o.namespaces) await cleanUpNamespace(this.#ctx.kube, ns);
  }

  async #createRc(j: number): Promise<Rc> {
    const ns = this.#o.namespaces[j % this.#o.namespaces.length] ?? '';
    const created = await this.#ctx.kube(
      'POST',
      `/api/v1/namespaces/${ns}/replicationcontrollers`,
      rcManifest(`rc-${j}`, this.#o.perRc),
    );
    return { ns, name: `rc-${j}`, uid: String((created['metadata'] as { uid: string }).uid) };
  }

  async #createPod(rc: Rc, k: number): Promise<void> {
    const owner = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      name: rc.name,
      uid: rc.uid,
      controller: true,
      blockOwnerDeletion: true,
    };
    await this.#ctx.kube('POST', `/api/v1/namespaces/${rc.ns}/pods`, {
      metadata: { name: `${rc.name}-${k}`, labels: { app: rc.name }, ownerReferences: [owner] },
      spec: {
        containers: [{ name: 'c', image: 'nginx' }],
        ...(this.#o.scheduled ? {} : { schedulerName: UNSCHEDULED }),
      },
    });
  }
}

/** MergePatcher sends merge PATCHes as the kubeconfig's identity; close ends its kept-alive connections. */
type MergePatcher = ((path: string, body: string) => Promise<void>) & { readonly close: () => void };

/**
 * mergePatcher keeps its connections alive (a TLS handshake per request would halve the rate on two cores) and
 * fails on any answer but 200.
 */
async function mergePatcher(kubeconfig: string): Promise<MergePatcher> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const server = kc.getCurrentCluster()?.server ?? '';
  const tls: RequestOptions = {};
  await kc.applyToHTTPSOptions(tls);
  const agent = new Agent({ ...(tls as AgentOptions), keepAlive: true });
  const patch = (path: string, body: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const headers = {
        ...tls.headers,
        'Content-Type': 'application/merge-patch+json',
        'Content-Length': String(Buffer.byteLength(body)),
      };
      const req = request(`${server}${path}`, { ...tls, agent, method: 'PATCH', headers, timeout: 60_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve()
            : reject(
                new Error(`PATCH ${path}: ${res.statusCode} ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`),
              ),
        );
      });
      req.on('timeout', () => req.destroy(new Error(`PATCH ${path}: no answer within 60 s`)));
      req.on('error', reject);
      req.end(body);
    });
  return Object.assign(patch, { close: () => agent.destroy() });
}

/** clusterCount is how many objects of a kind the cluster holds, in every namespace. */
export async function clusterCount(ctx: BenchContext, plural: 'pods' | 'replicationcontrollers'): Promise<number> {
  const list = (await ctx.kube('GET', `/api/v1/${plural}?limit=1`)) as {
    items: unknown[];
    metadata: { remainingItemCount?: number };
  };
  return list.items.length + (list.metadata.remainingItemCount ?? 0);
}
