/** What S16 puts in a namespace before deleting it: objects of 10 kinds, pending pods among them. */
import type { BenchContext } from '../../lib/scenario.ts';

/** IN_FLIGHT is how many creates filling a namespace are in flight at once. */
const IN_FLIGHT = 16;

const LABELS = { app: 's16' };

function podSpec(): object {
  return {
    // No scheduler serves this name: the pods stay pending, and a pod bound to no node is deleted at once.
    schedulerName: 'kcm-bus-bench-none',
    terminationGracePeriodSeconds: 30,
    containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }],
  };
}

const template = (): object => ({ metadata: { labels: LABELS }, spec: podSpec() });

/** KINDS are the 10 kinds of a namespace's content: the collection's path under a namespace and an object named n. */
const KINDS: readonly { readonly path: (ns: string) => string; readonly object: (n: string) => object }[] = [
  { path: (ns) => `/api/v1/namespaces/${ns}/configmaps`, object: (n) => ({ metadata: { name: n }, data: { k: n } }) },
  {
    path: (ns) => `/api/v1/namespaces/${ns}/secrets`,
    object: (n) => ({ metadata: { name: n }, type: 'Opaque', stringData: { k: n } }),
  },
  { path: (ns) => `/api/v1/namespaces/${ns}/serviceaccounts`, object: (n) => ({ metadata: { name: n } }) },
  {
    path: (ns) => `/api/v1/namespaces/${ns}/services`,
    object: (n) => ({ metadata: { name: n }, spec: { type: 'ClusterIP', selector: LABELS, ports: [{ port: 80 }] } }),
  },
  { path: (ns) => `/api/v1/namespaces/${ns}/pods`, object: (n) => ({ metadata: { name: n }, spec: podSpec() }) },
  {
    path: (ns) => `/api/v1/namespaces/${ns}/replicationcontrollers`,
    object: (n) => ({ metadata: { name: n }, spec: { replicas: 0, selector: LABELS, template: template() } }),
  },
  {
    path: (ns) => `/apis/apps/v1/namespaces/${ns}/deployments`,
    object: (n) => ({
      metadata: { name: n },
      spec: { replicas: 0, selector: { matchLabels: LABELS }, template: template() },
    }),
  },
  {
    path: (ns) => `/api/v1/namespaces/${ns}/podtemplates`,
    object: (n) => ({ metadata: { name: n }, template: template() }),
  },
  {
    path: (ns) => `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`,
    object: (n) => ({
      metadata: { name: n },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
    }),
  },
  {
    path: (ns) => `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`,
    object: (n) => ({
      metadata: { name: n },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: n },
      subjects: [{ kind: 'ServiceAccount', name: n, namespace: 'default' }],
    }),
  },
];

/** fill creates `count` objects in ns, object i of kind i mod 10, IN_FLIGHT creates at a time. */
export async function fill(ctx: BenchContext, ns: string, count: number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < count; i = next++) {
      const kind = KINDS[i % KINDS.length]!;
      await ctx.kube('POST', kind.path(ns), kind.object(`s16-${i}`));
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}
