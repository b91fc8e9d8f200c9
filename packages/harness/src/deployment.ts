import type { RawKube } from './kube.ts';
import { waitFor } from './wait.ts';
import type { PodJson, Workload } from './workload-snapshot.ts';

/** deploymentManifest is a Deployment of `replicas` pods of `image`, labelled app=<name>, with extra spec fields. */
export function deploymentManifest(
  name: string,
  replicas: number,
  image: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const template = { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image }] } };
  return { metadata: { name }, spec: { replicas, selector: { matchLabels: { app: name } }, template, ...extra } };
}

/** DeploymentClient is a namespace's view for Deployment tests: apply changes to Deployments and ReplicaSets, wait for rollouts. */
export type DeploymentClient = {
  readonly create: (kind: 'deployments' | 'replicasets', manifest: Record<string, unknown>) => Promise<void>;
  readonly change: (
    kind: 'deployments' | 'replicasets',
    name: string,
    change: (spec: Record<string, unknown>) => Record<string, unknown>,
  ) => Promise<void>;
  readonly rolledOut: (name: string) => Promise<void>;
  readonly pods: () => Promise<PodJson[]>;
};

/** deploymentClient makes a DeploymentClient for namespace ns (which must exist). */
export function deploymentClient(kube: RawKube, ns: string): DeploymentClient {
  const path = (kind: string): string => `/apis/apps/v1/namespaces/${ns}/${kind}`;
  return {
    create: async (kind, manifest) => void (await kube('POST', path(kind), manifest)),
    // As kubectl edit: read, write with the read resourceVersion, read again when a controller's write got in between.
    change: (kind, name, change) =>
      waitFor(
        `${kind}/${name} changed`,
        async () => {
          const current = await kube('GET', `${path(kind)}/${name}`);
          try {
            await kube('PUT', `${path(kind)}/${name}`, {
              ...current,
              spec: change(current['spec'] as Record<string, unknown>),
            });
            return true;
          } catch (err) {
            if (String(err).includes(': 409 ')) return false;
            throw err;
          }
        },
        { timeoutMs: 60_000, intervalMs: 50 },
      ).then(() => undefined),
    // kubectl rollout status: observed the generation, every replica updated and available, no old replica left.
    rolledOut: (name) =>
      waitFor(
        `deployment ${name} rolled out`,
        async () => {
          const d = (await kube('GET', `${path('deployments')}/${name}`)) as unknown as Workload;
          const s = d.status ?? {};
          const want = d.spec.replicas ?? 1;
          return (
            s.observedGeneration === d.metadata.generation &&
            s['updatedReplicas'] === want &&
            s['replicas'] === want &&
            s['availableReplicas'] === want
          );
        },
        { timeoutMs: 180_000 },
      ).then(() => undefined),
    pods: async () =>
      ((await kube('GET', `/api/v1/namespaces/${ns}/pods`))['items'] as PodJson[]).filter(
        (p) => p.metadata.deletionTimestamp === undefined,
      ),
  };
}
