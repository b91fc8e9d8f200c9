import type { RawKube } from './kube.ts';
import { waitForSteady } from './wait.ts';

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
export type Workload = {
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
export type PodJson = {
  readonly metadata: Meta;
  readonly spec?: { readonly nodeName?: string; readonly containers?: readonly { readonly image?: string }[] };
  readonly status?: { readonly phase?: string };
};
type EventJson = {
  readonly reason: string;
  readonly source?: { readonly component?: string };
  readonly involvedObject: { readonly kind: string; readonly name: string };
};

/**
 * WorkloadSnapshot is a namespace's end state, pod names aside: every Deployment and ReplicaSet (spec replicas,
 * status, conditions, owner), every live pod (app, image, owner, phase), and the event reasons per object and source.
 * A Deployment's ReplicaSet goes by `<deployment>@r<revision>`, not its name: the name's hash is each controller's
 * own (upstream's hashes Go's dump of the template, kcm-bus's a canonical JSON of it).
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
  const [deployments, replicaSets, pods, events] = await Promise.all([
    list<Workload>(`/apis/apps/v1/namespaces/${ns}/deployments`),
    list<Workload>(`/apis/apps/v1/namespaces/${ns}/replicasets`),
    list<PodJson>(`/api/v1/namespaces/${ns}/pods`),
    list<EventJson>(`/api/v1/namespaces/${ns}/events`),
  ]);
  const names = snapshotNames(deployments, replicaSets);
  const byName = (items: readonly Workload[]): Record<string, unknown> =>
    Object.fromEntries(
      items.map((w) => [names.of(w.metadata.name), describe(w)] as const).sort(([a], [b]) => a.localeCompare(b)),
    );
  const owner = (m: Meta): string => names.of(m.ownerReferences?.find((r) => r.controller)?.name ?? 'nobody');
  const pod = (p: PodJson): string =>
    `${p.metadata.labels?.['app'] ?? '?'} ${p.spec?.containers?.[0]?.image ?? ''} owned by ${owner(p.metadata)} ${p.status?.phase ?? ''}`;
  const event = (e: EventJson): string =>
    `${e.involvedObject.kind} ${names.ofEvent(e)} ${e.reason} (${e.source?.component ?? ''})`;
  return {
    deployments: byName(deployments),
    replicaSets: byName(replicaSets),
    pods: pods
      .filter((p) => p.metadata.deletionTimestamp === undefined)
      .map(pod)
      .sort(),
    events: [...new Set(events.filter((e) => e.involvedObject.kind !== 'Pod').map(event))].sort(),
  };
}

/**
 * describe is what a snapshot compares of a Deployment or ReplicaSet. A rolling update's number of scaling steps
 * (each a new ReplicaSet generation) depends on how fast pods become available: the status says whether it observed
 * the latest generation, not the generation's number.
 */
function describe(w: Workload): unknown {
  const { conditions, observedGeneration, ...rest } = w.status ?? {};
  return {
    replicas: w.spec.replicas,
    status: { ...rest, observedLatest: observedGeneration === w.metadata.generation },
    conditions: (conditions ?? []).map((c) => `${c.type}=${c.status}/${c.reason ?? ''}`).sort(),
    owner: w.metadata.ownerReferences?.find((r) => r.controller)?.kind ?? 'none',
    image: w.spec.template?.spec?.containers?.[0]?.image,
    revision: w.metadata.annotations?.['deployment.kubernetes.io/revision'],
  };
}

type SnapshotNames = { readonly of: (name: string) => string; readonly ofEvent: (e: EventJson) => string };

/**
 * snapshotNames: each ReplicaSet a Deployment controls goes by its owner and revision annotation; a ReplicaSet
 * deleted since (revisionHistoryLimit) left events under a name nothing resolves, which go by its Deployment's.
 */
function snapshotNames(deployments: readonly Workload[], replicaSets: readonly Workload[]): SnapshotNames {
  const aliases = new Map<string, string>();
  for (const rs of replicaSets) {
    const owner = rs.metadata.ownerReferences?.find((r) => r.controller && r.kind === 'Deployment');
    const revision = rs.metadata.annotations?.['deployment.kubernetes.io/revision'];
    if (owner !== undefined && revision !== undefined) aliases.set(rs.metadata.name, `${owner.name}@r${revision}`);
  }
  const of = (name: string): string => aliases.get(name) ?? name;
  const ofEvent = (e: EventJson): string => {
    const name = e.involvedObject.name;
    if (e.involvedObject.kind !== 'ReplicaSet' || aliases.has(name)) return of(name);
    const d = deployments.find((w) => name.startsWith(`${w.metadata.name}-`));
    return d === undefined ? name : `${d.metadata.name}@deleted`;
  };
  return { of, ofEvent };
}

/** convergedWorkloads waits until `done` holds and three polls a second apart agree. */
export function convergedWorkloads(
  kube: RawKube,
  ns: string,
  done: (s: WorkloadSnapshot) => boolean,
): Promise<WorkloadSnapshot> {
  return waitForSteady(ns, () => workloadSnapshot(kube, ns), done, { timeoutMs: 240_000 });
}
