import type { RawKube } from './kube.ts';
import { waitFor, waitForSteady } from './wait.ts';

type Condition = { readonly type: string; readonly status: string; readonly reason?: string };
type Meta = {
  readonly name: string;
  readonly uid: string;
  readonly generation?: number;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
  readonly deletionTimestamp?: string;
  readonly ownerReferences?: readonly {
    readonly kind: string;
    readonly name: string;
    readonly uid: string;
    readonly controller?: boolean;
  }[];
};
type Workload = {
  readonly metadata: Meta;
  readonly spec: {
    readonly replicas?: number;
    readonly template?: { readonly spec?: { readonly containers?: readonly { readonly image?: string }[] } };
  };
  readonly status?: Record<string, unknown> & {
    readonly conditions?: readonly Condition[];
    readonly observedGeneration?: number;
  };
};
type PodJson = {
  readonly metadata: Meta;
  readonly spec?: { readonly nodeName?: string; readonly containers?: readonly { readonly image?: string }[] };
  readonly status?: { readonly phase?: string };
};
type EventJson = {
  readonly reason: string;
  readonly source?: { readonly component?: string };
  readonly involvedObject: { readonly kind: string; readonly name: string };
};

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

/**
 * WorkloadSnapshot is a namespace's end state, pod names aside: every Deployment and ReplicaSet (spec replicas,
 * status, conditions, owner), every live pod (app, image, owner, phase), and the event reasons per object and source.
 */
export type WorkloadSnapshot = {
  readonly deployments: Record<string, unknown>;
  readonly replicaSets: Record<string, unknown>;
  readonly pods: readonly string[];
  readonly events: readonly string[];
};

/** workloadSnapshot reads a namespace's WorkloadSnapshot. */
export async function workloadSnapshot(kube: RawKube, ns: string): Promise<WorkloadSnapshot> {
  const list = async <T>(path: string): Promise<T[]> => (await kube('GET', path))['items'] as T[];
  const describe = (w: Workload): unknown => {
    // A rolling update's number of scaling steps (each a new ReplicaSet generation) depends on how fast pods become
    // available: compare whether the status observed the latest generation, not the generation's number.
    const { conditions, observedGeneration, ...rest } = w.status ?? {};
    const status = { ...rest, observedLatest: observedGeneration === w.metadata.generation };
    const owner = w.metadata.ownerReferences?.find((r) => r.controller)?.kind ?? 'none';
    return {
      replicas: w.spec.replicas,
      status,
      conditions: (conditions ?? []).map((c) => `${c.type}=${c.status}/${c.reason ?? ''}`).sort(),
      owner,
      image: w.spec.template?.spec?.containers?.[0]?.image,
      revision: w.metadata.annotations?.['deployment.kubernetes.io/revision'],
    };
  };
  const byName = (items: Workload[]): Record<string, unknown> =>
    Object.fromEntries(
      items.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name)).map((w) => [w.metadata.name, describe(w)]),
    );
  const pods = (await list<PodJson>(`/api/v1/namespaces/${ns}/pods`)).filter(
    (p) => p.metadata.deletionTimestamp === undefined,
  );
  const owner = (p: PodJson): string => p.metadata.ownerReferences?.find((r) => r.controller)?.name ?? 'nobody';
  const events = await list<EventJson>(`/api/v1/namespaces/${ns}/events`);
  return {
    deployments: byName(await list<Workload>(`/apis/apps/v1/namespaces/${ns}/deployments`)),
    replicaSets: byName(await list<Workload>(`/apis/apps/v1/namespaces/${ns}/replicasets`)),
    pods: pods
      .map(
        (p) =>
          `${p.metadata.labels?.['app'] ?? '?'} ${p.spec?.containers?.[0]?.image ?? ''} owned by ${owner(p)} ${p.status?.phase ?? ''}`,
      )
      .sort(),
    events: [
      ...new Set(
        events
          .filter((e) => e.involvedObject.kind !== 'Pod')
          .map((e) => `${e.involvedObject.kind} ${e.involvedObject.name} ${e.reason} (${e.source?.component ?? ''})`),
      ),
    ].sort(),
  };
}

/** convergedWorkloads waits until `done` holds and three polls a second apart agree. */
export function convergedWorkloads(
  kube: RawKube,
  ns: string,
  done: (s: WorkloadSnapshot) => boolean,
): Promise<WorkloadSnapshot> {
  return waitForSteady(ns, () => workloadSnapshot(kube, ns), done, { timeoutMs: 240_000 });
}
