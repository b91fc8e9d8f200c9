import { waitFor } from '@kcm-bus/harness/wait.ts';
import { rawKube, uniqueName } from './stack.ts';

const kube = rawKube();

export type Status = { readonly hard?: Record<string, string>; readonly used?: Record<string, string> };
export type Used = Readonly<Record<string, Readonly<Record<string, string>>>>;

const compute = (req: [string, string], lim: [string, string]) => ({
  requests: { cpu: req[0], memory: req[1] },
  limits: { cpu: lim[0], memory: lim[1] },
});
const pod = (name: string, resources: object = {}, spec: object = {}) => ({
  metadata: { name },
  spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'c', image: 'x', resources }], ...spec },
});
const template = {
  metadata: { labels: { a: 'b' } },
  spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] },
};

/** QUOTAS are the script's quotas: compute resources by scope, and objects of every kind the evaluators count. */
export const QUOTAS: readonly object[] = [
  {
    metadata: { name: 'compute' },
    spec: {
      scopes: ['NotBestEffort'],
      hard: { pods: '4', 'requests.cpu': '1', 'requests.memory': '1Gi', 'limits.cpu': '2', 'limits.memory': '2Gi' },
    },
  },
  { metadata: { name: 'besteffort' }, spec: { scopes: ['BestEffort'], hard: { pods: '3' } } },
  { metadata: { name: 'terminating' }, spec: { scopes: ['Terminating'], hard: { pods: '2' } } },
  {
    metadata: { name: 'objects' },
    spec: {
      hard: {
        pods: '10',
        'count/configmaps': '10',
        'count/secrets': '10',
        services: '4',
        'services.nodeports': '4',
        'services.loadbalancers': '2',
        persistentvolumeclaims: '3',
        'requests.storage': '5Gi',
        'count/jobs.batch': '2',
        'count/deployments.apps': '2',
        'example.com/widgets': '3',
      },
    },
  },
];

/** OBJECTS are what the script creates, by collection. */
export const OBJECTS: readonly (readonly [string, readonly object[]])[] = [
  ['api/v1/configmaps', [{ metadata: { name: 'cm-a' } }, { metadata: { name: 'cm-b' } }]],
  ['api/v1/secrets', [{ metadata: { name: 's-a' }, stringData: { k: 'v' } }]],
  [
    'api/v1/services',
    [
      { metadata: { name: 'svc-a' }, spec: { ports: [{ port: 80 }] } },
      { metadata: { name: 'svc-np' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } },
      {
        metadata: { name: 'svc-lb' },
        spec: {
          type: 'LoadBalancer',
          ports: [
            { name: 'a', port: 80 },
            { name: 'b', port: 81 },
          ],
        },
      },
    ],
  ],
  [
    'api/v1/persistentvolumeclaims',
    ['1Gi', '2Gi'].map((size, i) => ({
      metadata: { name: `pvc-${i}` },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } } },
    })),
  ],
  [
    'api/v1/pods',
    [
      pod('p-be1'),
      pod('p-be2'),
      pod('p-deadline', {}, { activeDeadlineSeconds: 600 }),
      pod('p-burst1', compute(['100m', '128Mi'], ['200m', '256Mi'])),
      pod('p-burst2', compute(['250m', '64Mi'], ['0.5', '128Mi'])),
    ],
  ],
  ['apis/batch/v1/jobs', [{ metadata: { name: 'job' }, spec: { suspend: true, template } }]],
  [
    'apis/apps/v1/deployments',
    [
      {
        metadata: { name: 'd' },
        spec: {
          replicas: 0,
          selector: { matchLabels: { a: 'b' } },
          template: { ...template, spec: { containers: template.spec.containers } },
        },
      },
    ],
  ],
];

/** DELETED are the objects the script deletes once all exist. */
export const DELETED = [
  'api/v1/configmaps/cm-a',
  'api/v1/secrets/s-a',
  'api/v1/services/svc-np',
  'api/v1/persistentvolumeclaims/pvc-1',
  'api/v1/pods/p-burst2',
  'apis/batch/v1/jobs/job',
];

export const at = (ns: string, path: string): string =>
  `/${path.replace(/^(api\/v1|apis\/[^/]+\/[^/]+)\//, `$1/namespaces/${ns}/`)}`;

/** statuses are the namespace's quotas' status, by name. */
export async function statuses(ns: string): Promise<Record<string, Status>> {
  const items = (await kube('GET', at(ns, 'api/v1/resourcequotas')))['items'] as {
    metadata: { name: string };
    status?: Status;
  }[];
  return Object.fromEntries(items.map((q) => [q.metadata.name, q.status ?? {}]));
}

/** BUCKETS_MS bound how soon a step's status is right: under 1 s, 2 s, 5 s, 10 s, 30 s, or later. */
const BUCKETS_MS = [1000, 2000, 5000, 10_000, 30_000];
const bucket = (ms: number): string => `≤${(BUCKETS_MS.find((b) => ms <= b) ?? Infinity) / 1000}s`;

/** settled waits until the quotas' statuses are those `done` accepts and says how soon (bucketed). */
export async function settled(ns: string, what: string, done: (s: Record<string, Status>) => boolean) {
  const start = Date.now();
  const status = await waitFor(
    what,
    async () => {
      const s = await statuses(ns);
      return done(s) ? s : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 100 },
  );
  return { status, soon: bucket(Date.now() - start) };
}

/** USED are the quotas' status.used after each step of the script, as upstream writes them. */
export const USED: Readonly<Record<'created' | 'deleted', Used>> = {
  created: {
    compute: {
      pods: '2',
      'requests.cpu': '350m',
      'requests.memory': '192Mi',
      'limits.cpu': '700m',
      'limits.memory': '384Mi',
    },
    besteffort: { pods: '3' },
    terminating: { pods: '1' },
    objects: {
      pods: '5',
      'count/configmaps': '3',
      'count/secrets': '1',
      services: '3',
      'services.nodeports': '3',
      'services.loadbalancers': '1',
      persistentvolumeclaims: '2',
      'requests.storage': '3Gi',
      'count/jobs.batch': '1',
      'count/deployments.apps': '1',
    },
  },
  deleted: {
    compute: {
      pods: '1',
      'requests.cpu': '100m',
      'requests.memory': '128Mi',
      'limits.cpu': '200m',
      'limits.memory': '256Mi',
    },
    besteffort: { pods: '3' },
    terminating: { pods: '1' },
    objects: {
      pods: '4',
      'count/configmaps': '2',
      'count/secrets': '0',
      services: '2',
      'services.nodeports': '2',
      'services.loadbalancers': '1',
      persistentvolumeclaims: '1',
      'requests.storage': '1Gi',
      'count/jobs.batch': '0',
      'count/deployments.apps': '1',
    },
  },
};

/**
 * quotaScript runs the script in a new namespace and returns each step's statuses and how soon they were right:
 * quotas created (no status: computed at once), objects created (charged by admission, recalculated), some deleted
 * (replenished), a pod turned terminal, a hard limit raised, a quota added late.
 */
export async function quotaScript(system: string): Promise<Record<string, unknown>> {
  const ns = uniqueName(`quota-${system}`);
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  await waitFor(`${ns}: kube-root-ca.crt`, () => kube('GET', `${at(ns, 'api/v1/configmaps')}/kube-root-ca.crt`));
  const steps: Record<string, unknown> = {};
  const step = async (name: string, done: (s: Record<string, Status>) => boolean) => {
    steps[name] = await settled(ns, `${system}: ${name}`, done);
  };
  for (const q of QUOTAS) await kube('POST', at(ns, 'api/v1/resourcequotas'), q);
  await step('quotas', (s) =>
    QUOTAS.every((q) => s[(q as { metadata: { name: string } }).metadata.name]?.used !== undefined),
  );
  for (const [collection, objects] of OBJECTS) for (const o of objects) await kube('POST', at(ns, collection), o);
  await step('created', usedAre(USED.created));
  for (const path of DELETED) await kube('DELETE', at(ns, path));
  await step('deleted', usedAre(USED.deleted));
  await terminal(ns, 'p-be1');
  await step('terminal', (s) => s['besteffort']?.used?.['pods'] === '2' && s['objects']?.used?.['pods'] === '3');
  await raise(ns, 'compute', { pods: '6', 'requests.cpu': '1500m' });
  await step('raised', (s) => s['compute']?.hard?.['pods'] === '6' && s['compute']?.hard?.['requests.cpu'] === '1500m');
  await kube('POST', at(ns, 'api/v1/resourcequotas'), {
    metadata: { name: 'late' },
    spec: { hard: { pods: '10', 'count/configmaps': '5' } },
  });
  await step('late', (s) => s['late']?.used !== undefined);
  return steps;
}

/** usedAre: every quota's used is as expected. */
const usedAre =
  (used: Used) =>
  (s: Record<string, Status>): boolean =>
    Object.entries(used).every(
      ([name, u]) => JSON.stringify(sorted(s[name]?.used ?? {})) === JSON.stringify(sorted(u)),
    );

const sorted = (r: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)));

/** terminal turns a pod Succeeded, as a kubelet would report it. */
async function terminal(ns: string, name: string): Promise<void> {
  const path = `${at(ns, 'api/v1/pods')}/${name}`;
  const p = await kube('GET', path);
  await kube('PUT', `${path}/status`, { ...p, status: { ...(p['status'] as object), phase: 'Succeeded' } });
}

/** raise sets some of a quota's hard limits. */
async function raise(ns: string, name: string, hard: Readonly<Record<string, string>>): Promise<void> {
  const path = `${at(ns, 'api/v1/resourcequotas')}/${name}`;
  const q = (await kube('GET', path)) as { spec: { hard: Record<string, string> } };
  await kube('PUT', path, { ...q, spec: { ...q.spec, hard: { ...q.spec.hard, ...hard } } });
}
