import type { RawKube } from './kube.ts';
import { waitFor } from './wait.ts';

/** Pod and Rc are the fields the ReplicationController tests read. */
export type Pod = {
  metadata: {
    name: string;
    labels?: Record<string, string>;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    ownerReferences?: OwnerRef[];
  };
  status?: { phase?: string; conditions?: { type: string; status: string; lastTransitionTime?: string }[] };
};
export type OwnerRef = {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
};
export type Rc = {
  metadata: { uid: string; generation?: number };
  spec: { replicas?: number };
  status?: {
    replicas?: number;
    fullyLabeledReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    observedGeneration?: number;
    conditions?: { type: string; reason: string }[];
  };
};

/** rcManifest is an RC of `replicas` nginx pods labelled app=<name>, with extra spec fields. */
export function rcManifest(
  name: string,
  replicas: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    metadata: { name },
    spec: {
      replicas,
      selector: { app: name },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      ...extra,
    },
  };
}

/** RcClient is a namespace's view for RC tests: its live pods by app label, those an RC owns, scaling, waiting. */
export type RcClient = {
  readonly rcs: string;
  readonly create: (manifest: Record<string, unknown>) => Promise<Rc>;
  readonly get: (name: string) => Promise<Rc>;
  readonly pods: (app: string) => Promise<Pod[]>;
  readonly owned: (app: string, uid: string) => Promise<Pod[]>;
  readonly scale: (name: string, replicas: number) => Promise<void>;
  readonly running: (app: string, n: number) => Promise<Pod[]>;
};

/** rcClient makes an RcClient for namespace ns (which must exist). */
export function rcClient(kube: RawKube, ns: string): RcClient {
  const rcs = `/api/v1/namespaces/${ns}/replicationcontrollers`;
  const pods = async (app: string): Promise<Pod[]> =>
    ((await kube('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=app%3D${app}`))['items'] as Pod[]).filter(
      (p) => !p.metadata.deletionTimestamp,
    );
  return {
    rcs,
    pods,
    create: async (manifest) => (await kube('POST', rcs, manifest)) as unknown as Rc,
    get: async (name) => (await kube('GET', `${rcs}/${name}`)) as unknown as Rc,
    owned: async (app, uid) =>
      (await pods(app)).filter((p) => p.metadata.ownerReferences?.some((r) => r.uid === uid && r.controller)),
    // As kubectl scale: read, write with the read resourceVersion, and read again when the controller's status
    // write got in between (409).
    scale: (name, replicas) =>
      waitFor(
        `${name} scaled to ${replicas}`,
        async () => {
          const current = await kube('GET', `${rcs}/${name}`);
          try {
            await kube('PUT', `${rcs}/${name}`, { ...current, spec: { ...(current['spec'] as object), replicas } });
            return true;
          } catch (err) {
            if (String(err).includes(': 409 ')) return false;
            throw err;
          }
        },
        { timeoutMs: 60_000, intervalMs: 50 },
      ).then(() => undefined),
    running: (app, n) =>
      waitFor(`${n} running pods of ${app}`, async () => {
        const list = await pods(app);
        return list.length === n && list.every((p) => p.status?.phase === 'Running') ? list : undefined;
      }),
  };
}

/**
 * ownedCounter counts the pods an RC owns on every call and remembers the most it ever saw: the no-over-creation
 * check polls it throughout a scale-up.
 */
export function ownedCounter(
  client: RcClient,
  app: string,
  uid: string,
): { readonly count: () => Promise<number>; readonly most: () => number } {
  let most = 0;
  return {
    count: async () => {
      const n = (await client.owned(app, uid)).length;
      most = Math.max(most, n);
      return n;
    },
    most: () => most,
  };
}
