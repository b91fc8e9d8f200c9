import type {
  CatalogInput,
  ControllerEntry,
  ControllerPart,
  Grant,
  ObjectKind,
} from '@kcm-bus/runtime/catalog/index.ts';
import { LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from '@kcm-bus/k8s/discovery-v1.ts';

/*
 * The controller catalog: the one place that says which of upstream's controllers kcm-bus runs, which service runs
 * each, what each reads, what the writer lets it write, and the names it goes by. Everything else (the writer's
 * allowlist and content rules, the stack's signers, RBAC and Kafka ACLs, the replay command, the tools, the
 * controllers' own declarations, the deploy manifests) is derived from it or checked against it by a test. Entries
 * keep their literal names, so a declaration that names an input or a workqueue its entry lacks does not compile.
 */

/** RECONCILER_SERVICES are the kcm-bus services that run controllers (each its own deployable and Kafka principal). */
export const RECONCILER_SERVICES = [
  'reconciler-rc',
  'reconciler-endpoint',
  'reconciler-node',
  'reconciler-namespace',
] as const;

/** ReconcilerService is one of RECONCILER_SERVICES. */
export type ReconcilerService = (typeof RECONCILER_SERVICES)[number];

/** CatalogEntry is a ControllerEntry run by one of RECONCILER_SERVICES. */
export type CatalogEntry = ControllerEntry & { readonly service: ReconcilerService };

/** entry keeps an entry's literal types (its names, workqueues and input names) for the declarations to check against. */
const entry = <const E extends CatalogEntry>(e: E): E => e;

const RC = { apiVersion: 'v1', kind: 'ReplicationController' } as const;
const RS = { apiVersion: 'apps/v1', kind: 'ReplicaSet' } as const;
const events: Grant = { resource: 'events', verbs: ['RecordEvent'] };
const partitioned = <const K extends string>(kind: K) =>
  ({ kind, scope: 'partitioned' }) as const satisfies CatalogInput;
const global = <const K extends string>(kind: K) => ({ kind, scope: 'global' }) as const satisfies CatalogInput;

/** replicaSetLike is a ReplicaSet manager's entry (upstream's ReplicaSetController serves RCs and ReplicaSets alike). */
function replicaSetLike<const N extends string, const P extends ControllerPart>(
  name: N,
  eventSource: string,
  owner: ObjectKind,
  plural: string,
  statusResource: string,
  part: P,
) {
  return entry({
    name,
    service: 'reconciler-rc',
    eventSource,
    reconciles: plural,
    newAtCut: true,
    eventKinds: [owner.kind],
    ownerFinalizers: [plural],
    parts: [part],
    grants: [
      {
        resource: 'pods',
        verbs: ['Create'],
        content: [{ check: 'namespace' }, { check: 'controllerRef', kind: owner, namedByKey: true }],
      },
      {
        resource: 'pods',
        verbs: ['Patch'],
        content: [
          { check: 'patchType', types: ['json'] },
          { check: 'patchFields', fields: { metadata: { ownerReferences: true } } },
          { check: 'ownerReferences', kind: owner, namedByKey: true },
        ],
      },
      { resource: 'pods', verbs: ['Delete'] },
      { resource: statusResource, verbs: ['UpdateStatus'], content: [{ check: 'keyObject' }] },
      events,
    ],
  });
}

/** REPLICATION_CONTROLLER is upstream's replicationcontroller-controller. */
export const REPLICATION_CONTROLLER = replicaSetLike(
  'replicationcontroller-controller',
  'replication-controller',
  RC,
  'replicationcontrollers',
  'replicationcontrollers/status',
  {
    workqueue: 'replicationmanager',
    inputs: { pods: partitioned('pods'), sets: partitioned('replicationcontrollers') },
    expectations: true,
    workers: { name: 'concurrent-rc-syncs', default: 5, help: "RCs synced at once (kube-controller-manager's flag)." },
  },
);

/** REPLICASET_CONTROLLER is upstream's replicaset-controller: the same code as the RC controller's, on ReplicaSets. */
export const REPLICASET_CONTROLLER = replicaSetLike(
  'replicaset-controller',
  'replicaset-controller',
  RS,
  'replicasets',
  'replicasets.apps/status',
  {
    workqueue: 'replicaset',
    inputs: { pods: partitioned('pods'), sets: partitioned('replicasets') },
    expectations: true,
    workers: {
      name: 'concurrent-replicaset-syncs',
      default: 5,
      help: "ReplicaSets synced at once (kube-controller-manager's flag).",
    },
  },
);

const DEPLOYMENT = { apiVersion: 'apps/v1', kind: 'Deployment' } as const;

/**
 * DEPLOYMENT_CONTROLLER is upstream's deployment-controller: it creates, scales, adopts and deletes a Deployment's
 * ReplicaSets (each owned by it) and writes the Deployment's status and revision annotations; its one write of a
 * Deployment's spec is the rollback of the deprecated `deprecated.deployment.rollback.to` annotation, as upstream's.
 */
export const DEPLOYMENT_CONTROLLER = entry({
  name: 'deployment-controller',
  service: 'reconciler-rc',
  eventSource: 'deployment-controller',
  reconciles: 'deployments',
  newAtCut: true,
  eventKinds: ['Deployment'],
  ownerFinalizers: ['deployments'],
  grants: [
    {
      resource: 'replicasets.apps',
      verbs: ['Create', 'Update'],
      content: [{ check: 'namespace' }, { check: 'controllerRef', kind: DEPLOYMENT, namedByKey: true }],
    },
    {
      resource: 'replicasets.apps',
      verbs: ['Patch'],
      content: [
        { check: 'patchType', types: ['json'] },
        { check: 'patchFields', fields: { metadata: { ownerReferences: true } } },
        { check: 'ownerReferences', kind: DEPLOYMENT, namedByKey: true },
      ],
    },
    { resource: 'replicasets.apps', verbs: ['Delete'], live: { check: 'controlledByKey', kind: DEPLOYMENT } },
    { resource: 'deployments.apps/status', verbs: ['UpdateStatus'], content: [{ check: 'keyObject' }] },
    { resource: 'deployments.apps', verbs: ['Update'], content: [{ check: 'namespace' }, { check: 'keyObject' }] },
    events,
  ],
  parts: [
    {
      workqueue: 'deployment',
      inputs: {
        deployments: partitioned('deployments'),
        replicaSets: partitioned('replicasets'),
        pods: partitioned('pods'),
      },
      workers: {
        name: 'concurrent-deployment-syncs',
        default: 5,
        help: "Deployments synced at once (kube-controller-manager's flag).",
      },
    },
  ],
});

/** ENDPOINTS_CONTROLLER is upstream's endpoints-controller. */
export const ENDPOINTS_CONTROLLER = entry({
  name: 'endpoints-controller',
  service: 'reconciler-endpoint',
  eventSource: 'endpoint-controller',
  reconciles: 'services',
  newAtCut: true,
  eventKinds: ['Endpoints'],
  ownerFinalizers: [],
  grants: [{ resource: 'endpoints', verbs: ['Create', 'Update', 'Delete'], content: [{ check: 'keyObject' }] }, events],
  parts: [
    {
      workqueue: 'endpoint',
      inputs: { services: partitioned('services'), pods: partitioned('pods'), endpoints: partitioned('endpoints') },
      workers: {
        name: 'concurrent-endpoint-syncs',
        default: 5,
        help: "Services synced at once (kube-controller-manager's flag).",
      },
    },
  ],
});

/** ENDPOINTSLICE_CONTROLLER is upstream's endpointslice-controller (its mirroring sibling is not replaced). */
export const ENDPOINTSLICE_CONTROLLER = entry({
  name: 'endpointslice-controller',
  service: 'reconciler-endpoint',
  eventSource: 'endpoint-slice-controller',
  reconciles: 'services',
  newAtCut: true,
  eventKinds: ['Service'],
  ownerFinalizers: ['services'],
  grants: [
    {
      resource: 'endpointslices.discovery.k8s.io',
      verbs: ['Create', 'Update'],
      content: [
        { check: 'namespace' },
        { check: 'label', key: LABEL_MANAGED_BY, equals: 'endpointslice-controller.k8s.io' },
        { check: 'controllerRef', kind: { apiVersion: 'v1', kind: 'Service' }, nameLabel: LABEL_SERVICE_NAME },
      ],
    },
    {
      resource: 'endpointslices.discovery.k8s.io',
      verbs: ['Delete'],
      live: { check: 'controlledByKey', kind: { apiVersion: 'v1', kind: 'Service' } },
    },
    events,
  ],
  parts: [
    {
      workqueue: 'endpoint_slice',
      inputs: {
        services: partitioned('services'),
        pods: partitioned('pods'),
        endpointSlices: partitioned('endpointslices'),
        nodes: global('nodes'),
      },
      workers: {
        name: 'concurrent-service-endpoint-syncs',
        default: 5,
        help: "Services whose EndpointSlices are synced at once (kube-controller-manager's flag).",
      },
    },
  ],
});

/** NODE_LIFECYCLE_CONTROLLER is upstream's node-lifecycle-controller: a node part (one active member) and a pod part. */
export const NODE_LIFECYCLE_CONTROLLER = entry({
  name: 'node-lifecycle-controller',
  service: 'reconciler-node',
  eventSource: 'node-controller',
  reconciles: null,
  eventKinds: ['Node', 'Pod'],
  ownerFinalizers: [],
  grants: [
    { resource: 'nodes/status', verbs: ['UpdateStatus'] },
    {
      resource: 'nodes',
      verbs: ['Patch'],
      content: [
        { check: 'patchType', types: ['strategic-merge', 'merge'] },
        {
          check: 'patchFields',
          fields: {
            metadata: { labels: { 'beta.kubernetes.io/os': true, 'beta.kubernetes.io/arch': true } },
            spec: { taints: true },
          },
        },
      ],
    },
    { resource: 'pods/status', verbs: ['UpdateStatus'] },
    { resource: 'pods', verbs: ['Delete'] },
    events,
  ],
  parts: [
    {
      workqueue: 'node_lifecycle_controller',
      inputs: { nodes: global('nodes'), leases: global('leases') },
      singleton: true,
      workers: {
        name: 'node-update-workers',
        default: 8,
        help: "Nodes synced at once (upstream's nodeUpdateWorkerSize).",
      },
    },
    {
      workqueue: 'node_lifecycle_controller_pods',
      inputs: { pods: partitioned('pods'), nodes: global('nodes') },
      workers: {
        name: 'pod-update-workers',
        default: 4,
        help: "Pods marked NotReady at once (upstream's podUpdateWorkerSize).",
      },
    },
  ],
});

/** TAINT_EVICTION_CONTROLLER is upstream's taint-eviction-controller. */
export const TAINT_EVICTION_CONTROLLER = entry({
  name: 'taint-eviction-controller',
  service: 'reconciler-node',
  eventSource: 'taint-eviction-controller',
  reconciles: null,
  eventKinds: ['Pod'],
  ownerFinalizers: [],
  grants: [
    {
      resource: 'pods/status',
      verbs: ['Patch'],
      content: [
        { check: 'patchType', types: ['strategic-merge', 'merge'] },
        { check: 'patchFields', fields: { status: { conditions: true } } },
        { check: 'conditionTypes', types: ['DisruptionTarget'] },
      ],
    },
    { resource: 'pods', verbs: ['Delete'] },
    events,
  ],
  parts: [
    {
      workqueue: 'noexec_taint_pod',
      inputs: { pods: partitioned('pods'), nodes: global('nodes') },
      workers: {
        name: 'taint-eviction-workers',
        default: 8,
        help: "Pods decided at once (upstream's UpdateWorkerSize).",
      },
    },
  ],
});

/**
 * SERVICEACCOUNT_CONTROLLER is upstream's serviceaccount-controller: the `default` ServiceAccount in every active
 * namespace, created again when deleted. It records no events; its one write is that Create.
 */
export const SERVICEACCOUNT_CONTROLLER = entry({
  name: 'serviceaccount-controller',
  service: 'reconciler-namespace',
  eventSource: 'service-account-controller',
  reconciles: 'namespaces',
  eventKinds: [],
  ownerFinalizers: [],
  grants: [
    {
      resource: 'serviceaccounts',
      verbs: ['Create'],
      content: [{ check: 'namespace' }, { check: 'name', equals: 'default' }],
    },
  ],
  parts: [
    {
      workqueue: 'serviceaccount',
      inputs: { namespaces: partitioned('namespaces'), serviceAccounts: partitioned('serviceaccounts') },
      workers: {
        name: 'serviceaccount-workers',
        default: 1,
        help: 'Namespaces whose service accounts are synced at once (upstream runs one worker: sac.Run(ctx, 1)).',
      },
    },
  ],
});

/**
 * ROOT_CA_CERT_PUBLISHER is upstream's root-ca-certificate-publisher-controller: the `kube-root-ca.crt` ConfigMap in
 * every namespace, holding the cluster's CA bundle (--root-ca-file), restored when changed and created again when
 * deleted. It records no events; it writes that ConfigMap and nothing else.
 */
export const ROOT_CA_CERT_PUBLISHER = entry({
  name: 'root-ca-certificate-publisher-controller',
  service: 'reconciler-namespace',
  eventSource: 'root-ca-cert-publisher',
  reconciles: 'namespaces',
  eventKinds: [],
  ownerFinalizers: [],
  grants: [
    {
      resource: 'configmaps',
      verbs: ['Create', 'Update'],
      content: [{ check: 'namespace' }, { check: 'name', equals: 'kube-root-ca.crt' }],
    },
  ],
  parts: [
    {
      workqueue: 'root_ca_cert_publisher',
      inputs: { namespaces: partitioned('namespaces'), configMaps: partitioned('configmaps') },
      workers: {
        name: 'root-ca-cert-publisher-workers',
        default: 1,
        help: 'Namespaces whose root CA ConfigMap is synced at once (upstream runs one worker: sac.Run(ctx, 1)).',
      },
    },
  ],
});

/**
 * SERVICEACCOUNT_TOKEN_CONTROLLER is upstream's serviceaccount-token-controller (tokens_controller.go): a legacy token
 * Secret of an existing account gets its token, ca.crt and namespace; one whose account is gone is deleted; one
 * deleted is taken out of its account's `secrets` (removeSecretReference), by a json patch that may only test and
 * remove there (an added reference would widen what the account's pods may mount under the
 * `kubernetes.io/enforce-mountable-secrets` annotation), and only while the API says the Secret is gone. No value
 * travels: the Secrets' topic carries digests, and the writer mints the token when it applies a PopulateToken, with
 * the key only it holds; both Secret writes hold only while the API says the account exists (or does not).
 */
export const SERVICEACCOUNT_TOKEN_CONTROLLER = entry({
  name: 'serviceaccount-token-controller',
  service: 'reconciler-namespace',
  eventSource: 'serviceaccount-token-controller',
  reconciles: 'secrets',
  eventKinds: [],
  ownerFinalizers: [],
  grants: [
    { resource: 'secrets', verbs: ['PopulateToken'], live: { check: 'tokenAccount', exists: true } },
    { resource: 'secrets', verbs: ['Delete'], live: { check: 'tokenAccount', exists: false } },
    {
      resource: 'serviceaccounts',
      verbs: ['Patch'],
      content: [
        { check: 'patchType', types: ['json'] },
        { check: 'patchOps', ops: ['test', 'remove'] },
        { check: 'patchFields', fields: { secrets: true } },
      ],
      live: { check: 'keySecretGone' },
    },
  ],
  parts: [
    {
      workqueue: 'serviceaccount_tokens_service',
      inputs: { serviceAccounts: partitioned('serviceaccounts'), secrets: partitioned('secrets') },
      workers: {
        name: 'concurrent-serviceaccount-token-syncs',
        default: 5,
        help: "Token Secrets synced at once (kube-controller-manager's flag).",
      },
    },
  ],
});

/**
 * NAMESPACE_CONDITION_TYPES are the namespace conditions upstream's deleter sets, in its order (conditionTypes,
 * status_condition_utils.go): what the namespace controller may write, and the order it appends them in.
 */
export const NAMESPACE_CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;

/**
 * NAMESPACE_CONTROLLER is upstream's namespace-controller (pkg/controller/namespace): a namespace with a deletion
 * timestamp has its content deleted by the writer (a DeleteNamespaceContent: discovery, then a delete-collection or
 * deletes per resource; its result reports what is left), its conditions set from that report, and its `kubernetes`
 * finalizer removed through /finalize once nothing is left. Both bounded powers hold only while the API says the
 * namespace is terminating.
 */
export const NAMESPACE_CONTROLLER = entry({
  name: 'namespace-controller',
  service: 'reconciler-namespace',
  eventSource: 'namespace-controller',
  reconciles: 'namespaces',
  eventKinds: [],
  ownerFinalizers: [],
  clientScale: { qps: 20, burst: 100 },
  grants: [
    {
      resource: 'namespaces',
      verbs: ['DeleteNamespaceContent'],
      content: [{ check: 'keyObject' }],
      live: { check: 'namespaceTerminating' },
    },
    {
      resource: 'namespaces/status',
      verbs: ['UpdateStatus'],
      content: [{ check: 'keyObject' }, { check: 'conditionTypes', types: NAMESPACE_CONDITION_TYPES }],
    },
    {
      resource: 'namespaces/finalize',
      verbs: ['FinalizeNamespace'],
      content: [{ check: 'keyObject' }],
      live: { check: 'namespaceTerminating' },
    },
  ],
  parts: [
    {
      workqueue: 'namespace',
      inputs: { namespaces: partitioned('namespaces') },
      workers: {
        name: 'concurrent-namespace-syncs',
        default: 10,
        help: "Namespaces synced at once (kube-controller-manager's flag).",
      },
    },
  ],
});

/**
 * RESOURCE_QUOTA_CONTROLLER is upstream's resourcequota-controller (pkg/controller/resourcequota): every quota's
 * status.hard and status.used kept current from the objects of its namespace, recalculated when an object it tracks
 * is deleted or changes what it charges, and every --resource-quota-sync-period. It counts kinds no other controller
 * reads by their identity alone (the metadata-only kinds); its one write is a quota's status.
 */
export const RESOURCE_QUOTA_CONTROLLER = entry({
  name: 'resourcequota-controller',
  service: 'reconciler-namespace',
  eventSource: 'resourcequota-controller',
  reconciles: 'resourcequotas',
  eventKinds: [],
  ownerFinalizers: [],
  grants: [{ resource: 'resourcequotas/status', verbs: ['UpdateStatus'], content: [{ check: 'keyObject' }] }],
  parts: [
    {
      workqueue: 'resourcequota_primary',
      inputs: {
        resourceQuotas: partitioned('resourcequotas'),
        pods: partitioned('pods'),
        services: partitioned('services'),
        persistentVolumeClaims: partitioned('persistentvolumeclaims'),
        resourceClaims: partitioned('resourceclaims'),
        replicationControllers: partitioned('replicationcontrollers'),
        replicaSets: partitioned('replicasets'),
        deployments: partitioned('deployments'),
        serviceAccounts: partitioned('serviceaccounts'),
        configMaps: partitioned('metadata.configmaps'),
        secrets: partitioned('metadata.secrets'),
        jobs: partitioned('metadata.jobs.batch'),
        cronJobs: partitioned('metadata.cronjobs.batch'),
        statefulSets: partitioned('metadata.statefulsets.apps'),
        daemonSets: partitioned('metadata.daemonsets.apps'),
      },
      workers: {
        name: 'concurrent-resource-quota-syncs',
        default: 5,
        help: "Quotas synced at once (kube-controller-manager's flag).",
      },
    },
  ],
});

/** CONTROLLERS is the catalog: every controller kcm-bus runs in place of kube-controller-manager's. */
export const CONTROLLERS: readonly CatalogEntry[] = [
  REPLICATION_CONTROLLER,
  REPLICASET_CONTROLLER,
  DEPLOYMENT_CONTROLLER,
  ENDPOINTS_CONTROLLER,
  ENDPOINTSLICE_CONTROLLER,
  NODE_LIFECYCLE_CONTROLLER,
  TAINT_EVICTION_CONTROLLER,
  SERVICEACCOUNT_CONTROLLER,
  ROOT_CA_CERT_PUBLISHER,
  SERVICEACCOUNT_TOKEN_CONTROLLER,
  NAMESPACE_CONTROLLER,
  RESOURCE_QUOTA_CONTROLLER,
];

/** catalogEntry is the controller of that name, or an error that names the catalog's file and the names it holds. */
export function catalogEntry(name: string): CatalogEntry {
  const entry = CONTROLLERS.find((c) => c.name === name);
  if (entry === undefined)
    throw new Error(
      `no controller ${JSON.stringify(name)} in the catalog (packages/catalog/src/controllers.ts): ${CONTROLLERS.map((c) => c.name).join(', ')}`,
    );
  return entry;
}

/** controllersOf are the controllers a service runs, in catalog order. */
export function controllersOf(service: ReconcilerService): readonly CatalogEntry[] {
  return CONTROLLERS.filter((c) => c.service === service);
}

/** inputKindsOf are the watched kinds (plurals) a service's controllers read, each once. */
export function inputKindsOf(service: ReconcilerService): readonly string[] {
  return [
    ...new Set(
      controllersOf(service).flatMap((c) => c.parts.flatMap((p) => Object.values(p.inputs).map((i) => i.kind))),
    ),
  ];
}

/**
 * cutKinds are the kinds (plurals) whose new objects controllers sync at a cut (newAtCut), each once, in catalog
 * order: the watcher's --watermark-prompt-kinds.
 */
export function cutKinds(): readonly string[] {
  return [...new Set(CONTROLLERS.flatMap((c) => (c.newAtCut === true && c.reconciles !== null ? [c.reconciles] : [])))];
}
