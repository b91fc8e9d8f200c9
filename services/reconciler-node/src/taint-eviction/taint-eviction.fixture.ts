import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import type { Node } from '@kcm-bus/k8s/node-v1.ts';
import type { Mutation, MutationResult } from '@kcm-bus/runtime/mutation/index.ts';
import type { ObjectEvent, Decision } from '@kcm-bus/runtime/controller/index.ts';
import { Store } from '@kcm-bus/runtime/store/index.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import { input } from '../pods-not-ready/node-pods.fixture.ts';
import { POD_NODE_NAME_INDEXERS } from '../pods-not-ready/pod-node-name-index.ts';
import { NOOP_TAINT_EVICTION_METRICS, type TaintEvictionMetrics } from './metrics.ts';
import { taintEvictionSpec } from './taint-eviction-spec.ts';

/**
 * TaintEvictionWorld is one member of taint eviction over stores the test changes (the informers' indexers of
 * taint_eviction_test.go): put/remove change a store and hand back the handler's enqueued keys, sync reconciles.
 */
export type TaintEvictionWorld = {
  readonly putPod: (pod: Pod, live?: boolean) => readonly string[];
  readonly removePod: (pod: Pod) => readonly string[];
  readonly putNode: (node: Node) => readonly string[];
  readonly removeNode: (node: Node) => readonly string[];
  readonly sync: (key: string, now: Date, failures?: readonly MutationResult[]) => Decision;
};

/** taintEvictionWorld starts a member whose stores hold these pods and nodes. */
export function taintEvictionWorld(
  pods: readonly Pod[],
  nodes: readonly Node[],
  metrics: TaintEvictionMetrics = NOOP_TAINT_EVICTION_METRICS,
): TaintEvictionWorld {
  const podStore = new Store<Pod>(POD_NODE_NAME_INDEXERS);
  const nodeStore = new Store<Node>();
  for (const pod of pods) podStore.apply({ type: 'Applied', key: objectKey(pod.metadata), object: pod });
  for (const node of nodes) nodeStore.apply({ type: 'Applied', key: node.metadata.name, object: node });
  const spec = taintEvictionSpec({ pods: podStore.lister(), nodes: nodeStore.lister() }, metrics);
  const change = <T extends Pod | Node>(
    store: Store<T>,
    handle: (e: ObjectEvent<T>) => { enqueue: readonly string[] },
    type: 'Applied' | 'Deleted',
    object: T,
    live = true,
  ) => {
    const key = objectKey(object.metadata);
    const old = store.apply({ type, key, object });
    return handle({ type, key, object, old, live }).enqueue;
  };
  return {
    putPod: (pod, live) => change(podStore, spec.handlers.pods, 'Applied', pod, live),
    removePod: (pod) => change(podStore, spec.handlers.pods, 'Deleted', pod),
    putNode: (node) => change(nodeStore, spec.handlers.nodes, 'Applied', node),
    removeNode: (node) => change(nodeStore, spec.handlers.nodes, 'Deleted', node),
    sync: (key, now, failures = []) => spec.reconcile(key, input(now, failures)),
  };
}

/** actions names a result's mutations as verifyPodActions and the fake recorder see them: `patch`, `delete`, event messages. */
export function actions(result: { readonly mutations: readonly Mutation[] }): string[] {
  return result.mutations.map((m) =>
    m.verb === 'RecordEvent'
      ? m.event!.message
      : m.verb === 'Patch'
        ? 'patch'
        : m.verb === 'Delete'
          ? 'delete'
          : m.verb,
  );
}
