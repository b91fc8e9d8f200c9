import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';
import { startService, type ServiceProcess } from '../test/support/processes.ts';
import { startUpstream as startUpstreamKcm, type Upstream } from '../test/support/upstream.ts';
import type { RawKube } from '../test/support/stack.ts';

export type { Upstream };

/** Qps is the client rate limit both systems get: --kube-api-qps / --kube-api-burst. */
export type Qps = { readonly qps: number; readonly burst: number };

/**
 * startUpstream runs upstream kube-controller-manager with one controller (default the ReplicationController's),
 * the given QPS, and leader election only when asked (S7 measures its takeover).
 */
export function startUpstream(e: StackEndpoints, q: Qps, opts: { readonly controllers?: string; readonly leaderElect?: boolean } = {}): Upstream {
  return startUpstreamKcm(e, { ...q, ...opts });
}

/** KcmBus is a running writer and reconciler-rc (the watcher runs for the whole bench). */
export type KcmBus = { readonly writer: ServiceProcess; readonly reconciler: ServiceProcess; readonly stop: () => Promise<void> };

/** busFlags are the Kafka and registry flags of every kcm-bus service. */
export function busFlags(e: StackEndpoints): string[] {
  return ['--kafka-brokers', e.kafkaBootstrap, '--schema-registry-url', e.registry];
}

/** startKcmBus runs the writer (64 requests in flight, the given QPS) and reconciler-rc. */
export async function startKcmBus(e: StackEndpoints, q: Qps, extra: { readonly writer?: readonly string[]; readonly reconciler?: readonly string[] } = {}): Promise<KcmBus> {
  const writer = await startService('writer', [...busFlags(e), '--kubeconfig', e.kubeconfigs.writer, `--kube-api-qps=${q.qps}`, `--kube-api-burst=${q.burst}`, '--concurrency=64', ...extra.writer ?? []]);
  const reconciler = await startService('reconciler-rc', [...busFlags(e), '--redis-url', e.redis, ...extra.reconciler ?? []]);
  return {
    writer, reconciler,
    stop: async () => {
      await reconciler.stop();
      await writer.stop();
    },
  };
}

/** rcManifest is the scenarios' RC: `replicas` pods labelled app=<name>, one nginx container. */
export function rcManifest(name: string, replicas: number): Record<string, unknown> {
  return { metadata: { name }, spec: { replicas, selector: { app: name }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
}

/**
 * cleanUpNamespace deletes a scenario's RCs and pods: the stack runs no namespace or garbage collector controller,
 * so the pods are deleted here (Background propagation: an Orphan one would leave the RCs behind with the orphan
 * finalizer nobody removes). A failure is reported, not fatal.
 */
export async function cleanUpNamespace(kube: RawKube, ns: string): Promise<void> {
  for (const path of [`/api/v1/namespaces/${ns}/replicationcontrollers?propagationPolicy=Background`, `/api/v1/namespaces/${ns}/pods?gracePeriodSeconds=0`]) {
    await kube('DELETE', path).catch((err: unknown) => console.error(`clean-up of ${path} failed: ${String(err)}`));
  }
}
