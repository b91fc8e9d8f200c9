import type { MutationVerb } from '../mutation/mutation.ts';
import type { ContentRuleSpec } from './content-rules.ts';

/*
 * The controller catalog: the one place that says which of upstream's controllers kcm-bus runs, which service runs
 * each, what each reads, what the writer lets it write, and the names it goes by. Everything else (the writer's
 * allowlist and content rules, the stack's signers, RBAC and Kafka ACLs, the replay command, the tools, the
 * controllers' own declarations) is derived from it or checked against it by a test.
 */

/** RECONCILER_SERVICES are the kcm-bus services that run controllers (each its own deployable and Kafka principal). */
export const RECONCILER_SERVICES = ['reconciler-rc', 'reconciler-endpoint', 'reconciler-node'] as const;

/** ReconcilerService is one of RECONCILER_SERVICES. */
export type ReconcilerService = (typeof RECONCILER_SERVICES)[number];

/** CatalogInput is one input of a controller part: a watched kind (by plural), read partitioned or whole (global). */
export type CatalogInput = { readonly kind: string; readonly scope: 'partitioned' | 'global' };

/** WorkersFlag is the flag that sets how many keys sync at once (upstream's --concurrent-<kind>-syncs). */
export type WorkersFlag = { readonly name: string; readonly default: number; readonly help: string };

/**
 * ControllerPart is one consumer group and workqueue of a controller: most controllers have one; node lifecycle has a
 * node part (one active member, like upstream's leader) and a pod part sharded with the pods.
 */
export type ControllerPart = {
  /** workqueue is upstream's workqueue name (the `name` label of the workqueue_* metrics). */
  readonly workqueue: string;
  readonly inputs: Readonly<Record<string, CatalogInput>>;
  readonly workers: WorkersFlag;
  readonly singleton?: boolean;
  readonly expectations?: boolean;
};

/**
 * Grant is one resource the writer lets a controller write, kubectl's `resource[.group][/subresource]`, with the
 * verbs and, where the verb alone says too little, the content rule its mutations must pass (ContentRuleSpec).
 */
export type Grant = {
  readonly resource: string;
  readonly verbs: readonly MutationVerb[];
  readonly content?: ContentRuleSpec;
};

/**
 * ControllerEntry is one of upstream's controllers as kcm-bus runs it. name is upstream's `--controllers` name, the
 * `controller` of its mutations and the signer of them; eventSource its recorder's component; reconciles the kind its
 * keys name (null: keys of its own, as node lifecycle's); eventKinds what its events may be about; ownerFinalizers the
 * kinds it sets blockOwnerDeletion on (upstream's role may update their finalizers, which the apiserver's
 * OwnerReferencesPermissionEnforcement admission asks for).
 */
export type ControllerEntry = {
  readonly name: string;
  readonly service: ReconcilerService;
  readonly eventSource: string;
  readonly reconciles: string | null;
  readonly eventKinds: readonly string[];
  readonly grants: readonly Grant[];
  readonly ownerFinalizers: readonly string[];
  readonly parts: readonly ControllerPart[];
};

const RC = { apiVersion: 'v1', kind: 'ReplicationController' } as const;
const RS = { apiVersion: 'apps/v1', kind: 'ReplicaSet' } as const;
const events: Grant = { resource: 'events', verbs: ['RecordEvent'] };
const partitioned = (kind: string): CatalogInput => ({ kind, scope: 'partitioned' });
const global = (kind: string): CatalogInput => ({ kind, scope: 'global' });

/** replicaSetLike is a ReplicaSet manager's entry (upstream's ReplicaSetController serves RCs and ReplicaSets alike). */
function replicaSetLike(
  name: string,
  eventSource: string,
  owner: typeof RC | typeof RS,
  plural: string,
  statusResource: string,
  part: ControllerPart,
): ControllerEntry {
  return {
    name,
    service: 'reconciler-rc',
    eventSource,
    reconciles: plural,
    eventKinds: [owner.kind],
    ownerFinalizers: [plural],
    parts: [part],
    grants: [
      { resource: 'pods', verbs: ['Create'], content: { rule: 'controlled-by', owner } },
      { resource: 'pods', verbs: ['Patch'], content: { rule: 'owner-references', owner } },
      { resource: 'pods', verbs: ['Delete'] },
      { resource: statusResource, verbs: ['UpdateStatus'] },
      events,
    ],
  };
}

/** CONTROLLERS is the catalog: every controller kcm-bus runs in place of kube-controller-manager's. */
export const CONTROLLERS: readonly ControllerEntry[] = [
  replicaSetLike(
    'replicationcontroller-controller',
    'replication-controller',
    RC,
    'replicationcontrollers',
    'replicationcontrollers/status',
    {
      workqueue: 'replicationmanager',
      inputs: { pods: partitioned('pods'), sets: partitioned('replicationcontrollers') },
      expectations: true,
      workers: {
        name: 'concurrent-rc-syncs',
        default: 5,
        help: "RCs synced at once (kube-controller-manager's flag).",
      },
    },
  ),
  replicaSetLike('replicaset-controller', 'replicaset-controller', RS, 'replicasets', 'replicasets.apps/status', {
    workqueue: 'replicaset',
    inputs: { pods: partitioned('pods'), sets: partitioned('replicasets') },
    expectations: true,
    workers: {
      name: 'concurrent-replicaset-syncs',
      default: 5,
      help: "ReplicaSets synced at once (kube-controller-manager's flag).",
    },
  }),
  {
    name: 'endpoints-controller',
    service: 'reconciler-endpoint',
    eventSource: 'endpoint-controller',
    reconciles: 'services',
    eventKinds: ['Endpoints'],
    ownerFinalizers: [],
    grants: [{ resource: 'endpoints', verbs: ['Create', 'Update', 'Delete'] }, events],
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
  },
  {
    name: 'endpointslice-controller',
    service: 'reconciler-endpoint',
    eventSource: 'endpoint-slice-controller',
    reconciles: 'services',
    eventKinds: ['Service'],
    ownerFinalizers: ['services'],
    grants: [
      {
        resource: 'endpointslices.discovery.k8s.io',
        verbs: ['Create', 'Update'],
        content: { rule: 'managed-endpoint-slice', managedBy: 'endpointslice-controller.k8s.io' },
      },
      { resource: 'endpointslices.discovery.k8s.io', verbs: ['Delete'] },
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
  },
  {
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
        content: {
          rule: 'merge-patch',
          fields: {
            metadata: { labels: { 'beta.kubernetes.io/os': true, 'beta.kubernetes.io/arch': true } },
            spec: { taints: true },
          },
        },
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
  },
  {
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
        content: { rule: 'merge-patch', fields: { status: { conditions: true } }, conditionType: 'DisruptionTarget' },
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
  },
];

/** catalogEntry is the controller of that name, or an error that names the catalog's file and the names it holds. */
export function catalogEntry(name: string): ControllerEntry {
  const entry = CONTROLLERS.find((c) => c.name === name);
  if (entry === undefined)
    throw new Error(
      `no controller ${JSON.stringify(name)} in the catalog (packages/runtime/src/catalog/controllers.ts): ${CONTROLLERS.map((c) => c.name).join(', ')}`,
    );
  return entry;
}

/** controllersOf are the controllers a service runs, in catalog order. */
export function controllersOf(service: ReconcilerService): readonly ControllerEntry[] {
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

/** reconciledKinds are the kinds (plurals) whose objects controllers sync, each once, in catalog order. */
export function reconciledKinds(): readonly string[] {
  return [...new Set(CONTROLLERS.flatMap((c) => (c.reconciles === null ? [] : [c.reconciles])))];
}
