import type { Bus } from '@kcm-bus/runtime/bus/index.ts';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { startService, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import type { RawKube } from '@kcm-bus/harness/kube.ts';
import { busFlags, serviceBusFlags, type StackEndpoints } from '@kcm-bus/stack/endpoints.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { knobValue, RUN } from './knobs.ts';
import { childPid, RC_METRICS, scrape } from './probes.ts';
import type { BenchContext } from './scenario.ts';

/** Qps is the client rate limit both systems get: --kube-api-qps / --kube-api-burst. */
export type Qps = { readonly qps: number; readonly burst: number };

/** KcmBus is a running writer and reconciler-rc (the watcher runs for the whole bench). */
export type KcmBus = {
  readonly writer: ServiceProcess;
  readonly reconciler: ServiceProcess;
  readonly stop: () => Promise<void>;
};

/** BUS_SERVICES are the kcm-bus processes an RC scenario exercises, whose CPU stands against kube-controller-manager's. */
export const BUS_SERVICES = ['watcher', 'writer', 'reconciler-rc'] as const;

/** benchWatcherPid is the pid of the watcher the bench runs throughout (bench/main.ts starts it). */
export function benchWatcherPid(): number {
  return childPid('services/watcher/src/main.ts');
}

/** busPids are the pids of BUS_SERVICES: the bench's own watcher and the given writer and reconciler-rc. */
export function busPids(bus: KcmBus): Record<(typeof BUS_SERVICES)[number], number> {
  return {
    watcher: benchWatcherPid(),
    writer: bus.writer.process.pid ?? 0,
    'reconciler-rc': bus.reconciler.process.pid ?? 0,
  };
}

/**
 * KAFKA_AUTH (BENCH_KAFKA_AUTH=1) runs the services as a secured deployment does: each logged in as its own
 * principal over TLS with SCRAM-SHA-512, under the broker's ACLs (serviceBusFlags); by default, the loopback
 * plaintext listener.
 */
export const KAFKA_AUTH = knobValue(RUN.kafkaAuth) === '1';

/** bus is a service's Kafka, registry and signing flags, as KAFKA_AUTH says. */
function bus(e: StackEndpoints, service: (typeof BUS_SERVICES)[number]): string[] {
  return KAFKA_AUTH ? serviceBusFlags(e, service) : busFlags(e);
}

/** writerFlags are the bench writer's: the given QPS, 64 requests in flight. */
export function writerFlags(e: StackEndpoints, q: Qps): string[] {
  return [
    ...bus(e, 'writer'),
    '--kubeconfig',
    e.kubeconfigs.writer,
    `--kube-api-qps=${q.qps}`,
    `--kube-api-burst=${q.burst}`,
    '--concurrency=64',
  ];
}

/** watcherFlags are the bench watcher's: the stack's Kafka and registry, its own kubeconfig (list/watch rights). */
export function watcherFlags(e: StackEndpoints): string[] {
  return [...bus(e, 'watcher'), '--kubeconfig', e.kubeconfigs.watcher];
}

/** reconcilerFlags are the bench reconciler-rc's. */
export function reconcilerFlags(e: StackEndpoints): string[] {
  return [...bus(e, 'reconciler-rc'), '--redis-url', e.redis];
}

/** startKcmBus runs the writer and reconciler-rc with the flags above. */
export async function startKcmBus(e: StackEndpoints, q: Qps): Promise<KcmBus> {
  const writer = await startService('writer', writerFlags(e, q));
  const reconciler = await startService('reconciler-rc', reconcilerFlags(e));
  return {
    writer,
    reconciler,
    stop: async () => {
      await reconciler.stop();
      await writer.stop();
    },
  };
}

/** caughtUp waits until reconciler-rc cached at least `pods` pods, every partition it owns is synced and its queue is empty. */
export async function caughtUp(reconciler: ServiceProcess, pods: number): Promise<number> {
  return waitFor(
    `reconciler-rc to cache ${pods} pods and go idle`,
    async () => {
      const m = await scrape(reconciler.metricsUrl);
      const cached = m('kcm_bus_cached_objects', { ...RC_METRICS, kind: 'pods' });
      return (
        cached >= pods &&
        m('kcm_bus_partitions', { ...RC_METRICS, state: 'syncing' }) === 0 &&
        m('kcm_bus_partitions', { ...RC_METRICS, state: 'synced' }) > 0 &&
        m('workqueue_depth', { name: 'replicationmanager' }) === 0 &&
        cached
      );
    },
    { timeoutMs: 600_000, intervalMs: 1000 },
  );
}

/**
 * withThrowawayTopic creates a one-partition topic (a shadow reconciler's --mutations-topic, which no writer reads)
 * for the duration of fn and deletes it after; a failed delete is logged, not fatal.
 */
export async function withThrowawayTopic<T>(
  ctx: BenchContext,
  topic: string,
  fn: (bus: Bus) => Promise<T>,
): Promise<T> {
  const bus = kafkaBus({ brokers: ctx.e.kafkaBrokers, clientId: 'kcm-bus-bench' });
  await bus.ensureTopics([{ topic, partitions: 1, configs: {} }]);
  try {
    return await fn(bus);
  } finally {
    await bus.deleteTopics([topic]).catch((err: unknown) => ctx.log(`deleting ${topic} failed: ${String(err)}`));
  }
}

/**
 * cleanUpNamespace deletes a scenario's Deployments, RCs, ReplicaSets and pods: the stack runs no namespace or garbage collector controller,
 * so the pods are deleted here (Background propagation: an Orphan one would leave the RCs behind with the orphan
 * finalizer nobody removes). A failure is reported, not fatal.
 */
export async function cleanUpNamespace(kube: RawKube, ns: string): Promise<void> {
  const collections = [
    `/apis/apps/v1/namespaces/${ns}/deployments?propagationPolicy=Background`,
    `/api/v1/namespaces/${ns}/replicationcontrollers?propagationPolicy=Background`,
    `/apis/apps/v1/namespaces/${ns}/replicasets?propagationPolicy=Background`,
    `/api/v1/namespaces/${ns}/pods?gracePeriodSeconds=0`,
  ];
  for (const path of collections) {
    await kube('DELETE', path).catch((err: unknown) => console.error(`clean-up of ${path} failed: ${String(err)}`));
  }
}
