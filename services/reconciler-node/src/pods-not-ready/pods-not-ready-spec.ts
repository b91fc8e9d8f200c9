import { getCondition } from '@kcm-bus/k8s/conditions.ts';
import type { ConditionStatus, Pod } from '@kcm-bus/k8s/core-v1.ts';
import { mutationLog } from '@kcm-bus/k8s/mutation-drafts.ts';
import type { Node } from '@kcm-bus/k8s/node-v1.ts';
import { podKey } from '@kcm-bus/k8s/pod-util.ts';
import type {
  HandlerOutput,
  ReconcileInput,
  ControllerSpec,
  InputWatermarks,
  Listers,
  ObjectEvent,
  Decision,
} from '@kcm-bus/runtime/controller/index.ts';
import { NODE_LIFECYCLE_CONTROLLER } from '../controller-names.ts';
import { markPodNotReady } from './mark-pods-not-ready.ts';
import { POD_NODE_NAME_INDEX } from './pod-node-name-index.ts';

/**
 * PodsNotReadyInputs are what the pods part of node lifecycle reads: pods co-partitioned by namespace (a key is a
 * pod's `namespace/name`), nodes read whole by every member. The pods input needs POD_NODE_NAME_INDEXERS.
 */
export type PodsNotReadyInputs = { readonly pods: Pod; readonly nodes: Node };

const NOTHING: HandlerOutput = { enqueue: [] };

/** nodeReadyStatus is the status of the node's Ready condition (GetNodeCondition(status, NodeReady)), undefined without one. */
function nodeReadyStatus(node: Node | undefined): ConditionStatus | undefined {
  return node === undefined ? undefined : getCondition(node.status ?? {}, 'Ready')?.status;
}

/** notReady: the node has a Ready condition and it is not True (upstream acts only with a Ready condition). */
function notReady(node: Node | undefined): boolean {
  const status = nodeReadyStatus(node);
  return status !== undefined && status !== 'True';
}

/**
 * podsNotReadySpec is the pods part of upstream's node lifecycle controller: MarkPodsNotReady as monitorNodeHealth
 * calls it when a node's Ready goes from True to not True, and processPod for a pod bound to a node whose Ready is
 * not True. The nodes handler sees the transition in the node's old and new state (the health part, or the kubelet,
 * wrote it), the pods handler a pod getting or changing its nodeName (podUpdated). Both act on live records only: a
 * restarted member restoring its backlog must not mark the pods of a transition long past. The reconcile is
 * level-based, so a retry after a failed write (upstream's nodesToRetry and AddRateLimited) decides again.
 * Nothing is member-local.
 */
export function podsNotReadySpec(
  listers: Listers<PodsNotReadyInputs>,
  watermarks: InputWatermarks<PodsNotReadyInputs>,
): ControllerSpec<PodsNotReadyInputs> {
  return {
    handlers: {
      nodes: (event) => nodeTransition(event, listers),
      pods: (event) => podBound(event, listers, watermarks),
    },
    reconcile: (key, input) => markPodsNotReady(key, input, listers),
  };
}

/** nodeTransition: a live node record whose Ready went from True to not True enqueues every pod on the node. */
function nodeTransition(event: ObjectEvent<Node>, listers: Listers<PodsNotReadyInputs>): HandlerOutput {
  if (!event.live || event.type === 'Deleted' || nodeReadyStatus(event.old) !== 'True' || !notReady(event.object))
    return NOTHING;
  return { enqueue: listers.pods.byIndex(POD_NODE_NAME_INDEX, event.object.metadata.name).map(podKey) };
}

/**
 * podBound mirrors podUpdated and processPod's checks: a live pod record that got or changed its nodeName, on a
 * node whose Ready is not True, enqueues the pod. Until the nodes input is known complete here (no watermark yet),
 * node health counts as not gathered and the pod is left alone, as processPod leaves it without nodeHealth.
 */
function podBound(
  event: ObjectEvent<Pod>,
  listers: Listers<PodsNotReadyInputs>,
  watermarks: InputWatermarks<PodsNotReadyInputs>,
): HandlerOutput {
  const nodeName = event.object.spec?.nodeName ?? '';
  if (!event.live || event.type === 'Deleted' || nodeName === '' || nodeName === event.old?.spec?.nodeName)
    return NOTHING;
  if (watermarks.watermark('nodes') === undefined || !notReady(listers.nodes.get(nodeName))) return NOTHING;
  return { enqueue: [event.key] };
}

/**
 * markPodsNotReady decides one pod: it still exists, its node's Ready is not True, and its own Ready condition is
 * not already False, then markPodNotReady.
 */
function markPodsNotReady(key: string, input: ReconcileInput, listers: Listers<PodsNotReadyInputs>): Decision {
  const pod = listers.pods.get(key);
  const nodeName = pod?.spec?.nodeName ?? '';
  if (pod === undefined || nodeName === '' || !notReady(listers.nodes.get(nodeName))) return { mutations: [] };
  const draft = markPodNotReady(pod, input.now);
  if (draft === undefined) return { mutations: [] };
  const log = mutationLog(NODE_LIFECYCLE_CONTROLLER, key, input.cause, input.now, input.attempt);
  log.push(draft);
  return { mutations: log.mutations() };
}
