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

type Kind = 'deployments' | 'replicasets';
type Json = Record<string, unknown>;

/** DeploymentClient is a namespace's view for Deployment tests: apply changes to Deployments and ReplicaSets, wait for rollouts. */
export type DeploymentClient = {
  readonly create: (kind: Kind, manifest: Json) => Promise<void>;
  readonly change: (kind: Kind, name: string, change: (spec: Json) => Json) => Promise<void>;
  /** annotate sets annotations of the object (kubectl annotate --overwrite). */
  readonly annotate: (kind: Kind, name: string, annotations: Record<string, string>) => Promise<void>;
  /** observed waits until the Deployment's status observed its latest generation. */
  readonly observed: (name: string) => Promise<void>;
  readonly rolledOut: (name: string) => Promise<void>;
  readonly pods: () => Promise<PodJson[]>;
};

/** deploymentClient makes a DeploymentClient for namespace ns (which must exist). */
export function deploymentClient(kube: RawKube, ns: string): DeploymentClient {
  const path = (kind: string): string => `/apis/apps/v1/namespaces/${ns}/${kind}`;
  const update = objectUpdate(kube, path);
  const deployment = async (name: string): Promise<Workload> =>
    (await kube('GET', `${path('deployments')}/${name}`)) as unknown as Workload;
  return {
    create: async (kind, manifest) => void (await kube('POST', path(kind), manifest)),
    change: (kind, name, change) => update(kind, name, (o) => ({ ...o, spec: change(o['spec'] as Json) })),
    annotate: (kind, name, annotations) =>
      update(kind, name, (o) => {
        const metadata = o['metadata'] as { readonly annotations?: Record<string, string> };
        return { ...o, metadata: { ...metadata, annotations: { ...metadata.annotations, ...annotations } } };
      }),
    observed: (name) =>
      waitFor(`deployment ${name} observed`, async () => {
        const d = await deployment(name);
        return d.status?.observedGeneration === d.metadata.generation;
      }).then(() => undefined),
    // kubectl rollout status: observed the generation, every replica updated and available, no old replica left.
    rolledOut: (name) =>
      waitFor(`deployment ${name} rolled out`, async () => rolledOut(await deployment(name)), {
        timeoutMs: 180_000,
      }).then(() => undefined),
    pods: async () =>
      ((await kube('GET', `/api/v1/namespaces/${ns}/pods`))['items'] as PodJson[]).filter(
        (p) => p.metadata.deletionTimestamp === undefined,
      ),
  };
}

/**
 * objectUpdate changes an object as kubectl edit does: read, write with the read resourceVersion, read again when a
 * controller's write got in between (409 Conflict).
 */
function objectUpdate(kube: RawKube, path: (kind: string) => string) {
  return (kind: Kind, name: string, change: (object: Json) => Json): Promise<void> =>
    waitFor(
      `${kind}/${name} changed`,
      async () => {
        const current = await kube('GET', `${path(kind)}/${name}`);
        try {
          await kube('PUT', `${path(kind)}/${name}`, change(current));
          return true;
        } catch (err) {
          if (String(err).includes(': 409 ')) return false;
          throw err;
        }
      },
      { timeoutMs: 60_000, intervalMs: 50 },
    ).then(() => undefined);
}

/** rolledOut is kubectl rollout status's test: the latest generation observed, every replica updated and available. */
function rolledOut(d: Workload): boolean {
  const s = d.status ?? {};
  const want = d.spec.replicas ?? 1;
  return (
    s.observedGeneration === d.metadata.generation &&
    s['updatedReplicas'] === want &&
    s['replicas'] === want &&
    s['availableReplicas'] === want
  );
}
