/** The quota differential's content: its quotas, the objects it creates and deletes, and what upstream counts. */

/** Status is a quota's status as the API serves it. */
export type Status = { readonly hard?: Record<string, string>; readonly used?: Record<string, string> };
/** Used is each quota's status.used, by quota name. */
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
