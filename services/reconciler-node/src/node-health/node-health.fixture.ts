import type { Lease, Node, NodeCondition, Taint } from '@kcm-bus/k8s/node-v1.ts';
import type { Mutation, MutationEvent } from '@kcm-bus/runtime/mutation/index.ts';
import type { ControllerSpec, ObjectEvent, Lister, Decision } from '@kcm-bus/runtime/controller/index.ts';
import { NOOP_NODE_COLLECTOR_METRICS, type NodeCollectorMetrics } from './metrics.ts';
import {
  DEFAULT_NODE_LIFECYCLE_CONFIG,
  type NodeHealthInputs,
  nodeHealthSpec,
  type NodeLifecycleConfig,
} from './node-health-spec.ts';

/** NodeCluster is the tests' apiserver for nodes and Leases: objects by key, recorded events, write outcomes. */
export type NodeCluster = {
  readonly nodes: Map<string, Node>;
  readonly leases: Map<string, Lease>;
  readonly events: MutationEvent[];
  readonly conflicts: Mutation[];
  rv: number;
};

/** Harness runs nodeHealthSpec against a NodeCluster with a hand-set clock and InputWatermarks (inputs fresh unless `watermark` is set). */
export type Harness = {
  readonly cluster: NodeCluster;
  readonly spec: ControllerSpec<NodeHealthInputs>;
  /** watermark: the time both inputs are known complete up to (null: not known); undefined means "as fresh as the run's now". */
  watermark: Date | null | undefined;
  /** run reconciles `key` at `now`, applies its mutations to the cluster and returns the result; node events it causes are handled. */
  run: (key: string, now: Date) => Decision;
  /** publish reconciles `key` at `now` without applying its mutations yet (the writer has not got to them); apply does. */
  publish: (key: string, now: Date) => Decision & { readonly apply: () => void };
  /** enqueued collects the keys the handlers asked for since the last call. */
  enqueued: () => string[];
};

/** listerOver is a live Lister over a map (the store as the watch keeps it). */
function listerOver<T>(map: Map<string, T>): Lister<T> {
  return { get: (key) => map.get(key), list: () => [...map.values()], byIndex: () => [] };
}

/** newHarness builds the spec over these nodes and Leases (Leases keyed kube-node-lease/<name>). */
export function newHarness(
  nodes: readonly Node[],
  leases: readonly Lease[] = [],
  config: Partial<NodeLifecycleConfig> = {},
  metrics: NodeCollectorMetrics = NOOP_NODE_COLLECTOR_METRICS,
): Harness {
  const cluster: NodeCluster = {
    nodes: new Map(nodes.map((n) => [n.metadata.name, { ...n, metadata: { resourceVersion: '1', ...n.metadata } }])),
    leases: new Map(leases.map((l) => [`${l.metadata.namespace}/${l.metadata.name}`, l])),
    events: [],
    conflicts: [],
    rv: 100,
  };
  let queue: string[] = [];
  let runAt = new Date(0);
  const reconcile = (key: string, now: Date): Decision => {
    runAt = now;
    return spec.reconcile(key, {
      expectations: { satisfied: true, pendingCreates: [], pendingDeletes: [] },
      failures: [],
      now,
      cause: [],
      attempt: 0,
      fresh: true,
    });
  };
  const h: Harness = {
    cluster,
    watermark: undefined,
    get spec() {
      return spec;
    },
    run: (key, now) => {
      const result = reconcile(key, now);
      for (const m of result.mutations) queue.push(...applyNodeMutation(cluster, m, spec));
      return result;
    },
    publish: (key, now) => {
      const result = reconcile(key, now);
      return {
        ...result,
        apply: () => void result.mutations.forEach((m) => queue.push(...applyNodeMutation(cluster, m, spec))),
      };
    },
    enqueued: () => {
      const out = queue;
      queue = [];
      return out;
    },
  };
  const watermarks = { watermark: () => (h.watermark === null ? undefined : (h.watermark ?? runAt)) };
  const spec = nodeHealthSpec(
    { nodes: listerOver(cluster.nodes), leases: listerOver(cluster.leases) },
    { ...DEFAULT_NODE_LIFECYCLE_CONFIG, ...config },
    watermarks,
    metrics,
  );
  return h;
}

/**
 * applyNodeMutation plays the writer for one mutation (events, UpdateStatus, strategic merge patches of labels and
 * taints; a write's outcome event once it applied) and hands the node event to the spec; returns the keys enqueued.
 */
function applyNodeMutation(c: NodeCluster, m: Mutation, spec: ControllerSpec<NodeHealthInputs>): string[] {
  if (m.verb === 'RecordEvent') {
    c.events.push(m.event!);
    return [];
  }
  const old = c.nodes.get(m.target.name);
  if (
    old === undefined ||
    old.metadata.uid !== m.preconditions.uid ||
    old.metadata.resourceVersion !== m.preconditions.resourceVersion
  ) {
    c.conflicts.push(m);
    return [];
  }
  const next =
    m.verb === 'UpdateStatus'
      ? { ...old, status: (JSON.parse(m.body!) as Node).status ?? {} }
      : merged(old, JSON.parse(m.patch!) as NodePatch);
  const object = { ...next, metadata: { ...next.metadata, resourceVersion: String(++c.rv) } };
  c.nodes.set(m.target.name, object);
  if (m.event !== null) c.events.push(m.event);
  const event: ObjectEvent<Node> = { type: 'Applied', key: m.target.name, object, old, live: true };
  return [...spec.handlers.nodes(event).enqueue];
}

type NodePatch = {
  readonly metadata?: { readonly labels?: Record<string, string> };
  readonly spec?: { readonly taints?: readonly Taint[] };
};

/** merged applies a strategic merge patch the way the apiserver does for Node labels (merged map) and taints (replaced list, empty omitted). */
function merged(node: Node, patch: NodePatch): Node {
  const labels =
    patch.metadata?.labels === undefined ? {} : { labels: { ...node.metadata.labels, ...patch.metadata.labels } };
  const taints = patch.spec?.taints;
  const { taints: _old, ...spec } = node.spec ?? {};
  const nextSpec = taints === undefined ? node.spec : { ...spec, ...(taints.length === 0 ? {} : { taints }) };
  return { ...node, metadata: { ...node.metadata, ...labels }, ...(nextSpec === undefined ? {} : { spec: nextSpec }) };
}

/** ZONE1 are the labels of the upstream tests' region1/zone1 nodes (both label sets). */
export const ZONE1 = {
  'topology.kubernetes.io/region': 'region1',
  'topology.kubernetes.io/zone': 'zone1',
  'failure-domain.beta.kubernetes.io/region': 'region1',
  'failure-domain.beta.kubernetes.io/zone': 'zone1',
};

/** node builds a node of the upstream tests: created in 2012 unless told, in zone1 unless labels say otherwise. */
export function node(
  name: string,
  conditions?: readonly NodeCondition[],
  extra: {
    readonly labels?: Record<string, string>;
    readonly taints?: readonly Taint[];
    readonly created?: string;
  } = {},
): Node {
  return {
    metadata: {
      name,
      uid: `uid-${name}`,
      creationTimestamp: extra.created ?? '2012-01-01T00:00:00Z',
      labels: extra.labels ?? ZONE1,
    },
    ...(extra.taints === undefined ? {} : { spec: { taints: extra.taints } }),
    status: conditions === undefined ? {} : { conditions },
  };
}

/** ready is a Ready condition with this status, heartbeat and transition time. */
export function ready(status: NodeCondition['status'], heartbeat: string, transition = heartbeat): NodeCondition {
  return { type: 'Ready', status, lastHeartbeatTime: heartbeat, lastTransitionTime: transition };
}

/** lease is a node's Lease in kube-node-lease renewed at renewTime. */
export function lease(name: string, renewTime: string): Lease {
  return {
    metadata: { name, namespace: 'kube-node-lease', uid: `lease-${name}` },
    spec: { holderIdentity: name, renewTime },
  };
}

/** renewLease renews a node's Lease at renewTime, as the watcher would bring it: its record read at observedAt. */
export function renewLease(h: Harness, name: string, renewTime: Date, observedAt: Date): void {
  const key = `kube-node-lease/${name}`;
  const old = h.cluster.leases.get(key);
  const object = lease(name, renewTime.toISOString());
  h.cluster.leases.set(key, object);
  h.spec.handlers.leases({ type: 'Applied', key, object, old, live: true, observedAt });
}

/** setStatus changes a node's status as its kubelet would (a new resourceVersion). */
export function setStatus(h: Harness, name: string, conditions: readonly NodeCondition[]): void {
  const old = h.cluster.nodes.get(name)!;
  h.cluster.nodes.set(name, {
    ...old,
    metadata: { ...old.metadata, resourceVersion: String(++h.cluster.rv) },
    status: { conditions },
  });
}

/** taintKeys lists a node's taints as `key:effect`. */
export function taintKeys(h: Harness, name: string): string[] {
  return (h.cluster.nodes.get(name)?.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`);
}

/** at is a UTC time of 2017-01-01 (the upstream tests' fakeNow is 12:00:00) plus seconds. */
export function at(seconds: number): Date {
  return new Date(Date.UTC(2017, 0, 1, 12, 0, 0) + seconds * 1000);
}
