import { deploymentClient, deploymentManifest } from '@kcm-bus/harness/deployment.ts';
import { startUpstream } from '@kcm-bus/harness/upstream.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { BUS_INFRA, cpuMeter, stackPids } from '../../lib/cpu.ts';
import { apiserverScrape } from '../../lib/endpoints/apiserver-metrics.ts';
import { follow } from '../../lib/follow.ts';
import { BENCH_PODS, numberKnob } from '../../lib/knobs.ts';
import type { BenchContext } from '../../lib/scenario.ts';
import { busPids, cleanUpNamespace, startKcmBus, type Qps } from '../../lib/systems.ts';
import { type ReplicaSetSeen, stepLatencies } from './steps.ts';

/** SIZE is the Deployment's replicas (BENCH_PODS); N its value. */
export const SIZE = { ...BENCH_PODS, meaning: 'replicas of the Deployment rolled out' };
export const N = numberKnob(SIZE);
const DEADLINE_MS = 1_200_000;
const STRATEGY = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } };

/**
 * RolloutRun is one system's rollout: seconds from `set image` to the rollout complete; the writes the apiserver
 * served meanwhile (ReplicaSets' create/update/delete, their status updates, the Deployment's status updates); the
 * CPU-seconds of the measured processes; the reaction times (ms) from a ReplicaSet's status change to the next
 * scaling step (steps.ts).
 */
export type RolloutRun = {
  readonly seconds: number;
  readonly writes: {
    readonly replicaSets: number;
    readonly replicaSetStatus: number;
    readonly deploymentStatus: number;
  };
  readonly cpu: Readonly<Record<string, number>>;
  readonly stepsMs: readonly number[];
};

type Rollable = { readonly metadata: { generation?: number }; readonly spec: { replicas?: number } } & {
  readonly status?: Record<string, number | undefined>;
};

/** rolledOut waits for kubectl rollout status's test: the generation observed, every replica updated and available. */
async function rolledOut(ctx: BenchContext, path: string): Promise<void> {
  await waitFor(
    `${path} rolled out`,
    async () => {
      const d = (await ctx.kube('GET', path)) as unknown as Rollable;
      const s = d.status ?? {};
      const want = d.spec.replicas ?? 1;
      return (
        s['observedGeneration'] === d.metadata.generation &&
        s['updatedReplicas'] === want &&
        s['replicas'] === want &&
        s['availableReplicas'] === want
      );
    },
    { timeoutMs: DEADLINE_MS, intervalMs: 250 },
  );
}

/** writesSoFar reads the apiserver's count of the writes a rollout makes (apiserver_request_total, every code). */
async function writesSoFar(ctx: BenchContext): Promise<RolloutRun['writes']> {
  const page = await apiserverScrape(ctx);
  const count = (resource: string, subresource: string, verbs: readonly string[]): number =>
    verbs.reduce((n, verb) => n + page('apiserver_request_total', { resource, subresource, verb }), 0);
  return {
    replicaSets: count('replicasets', '', ['POST', 'PUT', 'DELETE']),
    replicaSetStatus: count('replicasets', 'status', ['PUT']),
    deploymentStatus: count('deployments', 'status', ['PUT']),
  };
}

/**
 * rollout creates a Deployment of N in a fresh namespace and waits until it rolled out (not measured), then sets a
 * new image and measures until the rollout is complete; it cleans up after, also when it fails.
 */
async function rollout(ctx: BenchContext, ns: string, pids: Readonly<Record<string, number>>): Promise<RolloutRun> {
  await ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const path = `/apis/apps/v1/namespaces/${ns}/deployments/web`;
  try {
    await ctx.kube('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
      ...deploymentManifest('web', N, 'nginx:1', { strategy: STRATEGY }),
    });
    await rolledOut(ctx, path);
    const seen: ReplicaSetSeen[] = [];
    const watch = follow<ReplicaSetSeen['rs']>(
      ctx.e.kubeconfig,
      `/apis/apps/v1/namespaces/${ns}/replicasets`,
      (_, rs, at) => seen.push({ at, rs }),
    );
    const [before, meter] = [await writesSoFar(ctx), cpuMeter(pids)];
    const started = performance.now();
    await deploymentClient(ctx.kube, ns).change('deployments', 'web', (spec) => ({
      ...spec,
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } },
    }));
    await rolledOut(ctx, path);
    const seconds = (performance.now() - started) / 1000;
    const [after, cpu] = [await writesSoFar(ctx), meter.read()];
    watch.stop();
    watch.check();
    const writes = {
      replicaSets: after.replicaSets - before.replicaSets,
      replicaSetStatus: after.replicaSetStatus - before.replicaSetStatus,
      deploymentStatus: after.deploymentStatus - before.deploymentStatus,
    };
    return { seconds, writes, cpu, stepsMs: stepLatencies(seen) };
  } finally {
    await cleanUpNamespace(ctx.kube, ns);
  }
}

/** underUpstream runs the rollout under kube-controller-manager's replicaset and deployment controllers. */
export async function underUpstream(ctx: BenchContext, q: Qps): Promise<RolloutRun> {
  const kcm = startUpstream(ctx.e, { ...q, controllers: 'replicaset-controller,deployment-controller' });
  try {
    const pids = { 'kube-controller-manager': kcm.process.pid ?? 0, ...stackPids(ctx.e, BUS_INFRA) };
    return await rollout(ctx, `${ctx.runId}-s14-up-${q.qps}`, pids);
  } finally {
    await kcm.stop();
  }
}

/** underKcmBus runs the rollout under kcm-bus's writer and reconciler-rc (its ReplicaSet and Deployment controllers). */
export async function underKcmBus(ctx: BenchContext, q: Qps): Promise<RolloutRun> {
  const bus = await startKcmBus(ctx.e, q);
  try {
    return await rollout(ctx, `${ctx.runId}-s14-bus-${q.qps}`, { ...busPids(bus), ...stackPids(ctx.e, BUS_INFRA) });
  } finally {
    await bus.stop();
  }
}
