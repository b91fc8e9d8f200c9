import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import { jsonEqual } from '@kcm-bus/k8s/json-equal.ts';
import { type MutationLog, mutationLog } from '@kcm-bus/k8s/mutation-drafts.ts';
import type { Node } from '@kcm-bus/k8s/node-v1.ts';
import { podKey } from '@kcm-bus/k8s/pod-util.ts';
import type {
  HandlerOutput,
  ReconcileInput,
  ControllerSpec,
  Listers,
  ObjectEvent,
  Lister,
  Decision,
} from '@kcm-bus/runtime/controller/index.ts';
import { POD_NODE_NAME_INDEX } from '../pods-not-ready/pod-node-name-index.ts';
import { TAINT_EVICTION_CONTROLLER } from '../controller-names.ts';
import { addConditionAndDeletePod, evictionEvent } from './evict-pod.ts';
import { type EvictionDecision, getNoExecuteTaints, processPodOnNode } from './process-pod-on-node.ts';
import { NOOP_TAINT_EVICTION_METRICS, type TaintEvictionMetrics } from './metrics.ts';
import { TimedEvictions } from './timed-evictions.ts';

/**
 * TaintEvictionInputs are what taint eviction reads: pods co-partitioned by namespace (a key is a pod's
 * `namespace/name`; the input needs POD_NODE_NAME_INDEXERS), nodes read whole by every member.
 */
export type TaintEvictionInputs = { readonly pods: Pod; readonly nodes: Node };

/** RETRIES is upstream's `retries`: attempts of addConditionAndDeletePod for one eviction. */
const RETRIES = 5;

const NOTHING: HandlerOutput = { enqueue: [] };

/**
 * taintEvictionSpec is upstream's taint-eviction-controller (taint_eviction.go, timed_workers.go): pod events
 * enqueue the pod (PodUpdated), node events the node's pods (NodeUpdated), restored records too, so a restarted
 * member recomputes every schedule; reconcile(podKey) is handlePodUpdate + processPodOnNode, and a due schedule is
 * the timed worker firing (deletePodHandler), counted in `metrics`. Member-local: the TimedEvictions (scheduled and
 * fired evictions).
 */
export function taintEvictionSpec(
  listers: Listers<TaintEvictionInputs>,
  metrics: TaintEvictionMetrics = NOOP_TAINT_EVICTION_METRICS,
): ControllerSpec<TaintEvictionInputs> {
  const evictions = new TimedEvictions();
  return {
    handlers: { pods: podUpdated, nodes: (event) => nodeUpdated(event, listers.pods) },
    reconcile: (key, input) => syncPod(key, input, listers, { evictions, metrics }),
  };
}

/** podUpdated mirrors PodUpdated: an add or a delete, or an update changing the tolerations or the nodeName. */
function podUpdated(event: ObjectEvent<Pod>): HandlerOutput {
  const { old, object } = event;
  const same =
    event.type === 'Applied' &&
    old !== undefined &&
    (old.spec?.nodeName ?? '') === (object.spec?.nodeName ?? '') &&
    jsonEqual(old.spec?.tolerations ?? [], object.spec?.tolerations ?? []);
  return same ? NOTHING : { enqueue: [event.key] };
}

/**
 * nodeUpdated mirrors NodeUpdated + handleNodeUpdate: an add, or an update changing the NoExecute taints, enqueues
 * the node's pods. A delete enqueues nothing: upstream forgets the node's taints and leaves its pods' timers run.
 */
function nodeUpdated(event: ObjectEvent<Node>, pods: Lister<Pod>): HandlerOutput {
  if (event.type === 'Deleted') return NOTHING;
  const taints = getNoExecuteTaints(event.object.spec?.taints);
  if (event.old !== undefined && jsonEqual(getNoExecuteTaints(event.old.spec?.taints), taints)) return NOTHING;
  return { enqueue: pods.byIndex(POD_NODE_NAME_INDEX, event.object.metadata.name).map(podKey) };
}

/**
 * syncPod decides one pod. Gone: its pending eviction is cancelled (with the event). Evicted by this member: only
 * a failed eviction write is tried again, up to RETRIES attempts (upstream's retry loop in deletePodHandler).
 * Otherwise processPodOnNode with its node's NoExecute taints; a pod whose node is gone keeps a pending eviction
 * running (upstream's timers outlive the node) and starts none.
 */
/** Memory is the member's eviction bookkeeping and where it counts deletions. */
type Memory = { readonly evictions: TimedEvictions; readonly metrics: TaintEvictionMetrics };

function syncPod(
  key: string,
  input: ReconcileInput,
  listers: Listers<TaintEvictionInputs>,
  { evictions, metrics }: Memory,
): Decision {
  const log = mutationLog(TAINT_EVICTION_CONTROLLER, key, input.cause, input.now, input.attempt);
  const pod = listers.pods.get(key);
  if (pod === undefined) {
    if (evictions.cancel(key)) log.push(evictionEvent(key, true));
    return { mutations: log.mutations() };
  }
  const fired = evictions.fired(key, pod.metadata.uid);
  if (fired !== undefined) {
    if (fired.attempts < RETRIES && input.failures.some((r) => r.verb !== 'RecordEvent'))
      evict(log, pod, input.now, { evictions, metrics }, input.now.getTime());
    return { mutations: log.mutations() };
  }
  const decision = decide(pod, listers.nodes, evictions, input.now);
  return decision === undefined ? { mutations: [] } : carryOut(decision, log, pod, input.now, { evictions, metrics });
}

function decide(pod: Pod, nodes: Lister<Node>, evictions: TimedEvictions, now: Date): EvictionDecision | undefined {
  const nodeName = pod.spec?.nodeName ?? '';
  if (nodeName === '') return undefined;
  const node = nodes.get(nodeName);
  const scheduled = evictions.scheduled(podKey(pod));
  if (node === undefined) return scheduled === undefined ? undefined : { action: 'schedule', eviction: scheduled };
  return processPodOnNode(getNoExecuteTaints(node.spec?.taints), pod.spec?.tolerations ?? [], scheduled, now);
}

/** carryOut applies a decision: cancelWorkWithEvent, AddWork at now, or AddWork at fireAt (a requeue until due). */
function carryOut(decision: EvictionDecision, log: MutationLog, pod: Pod, now: Date, memory: Memory): Decision {
  const { evictions } = memory;
  const key = podKey(pod);
  if (decision.action !== 'schedule') {
    if (evictions.cancel(key)) log.push(evictionEvent(key, true));
    if (decision.action === 'evictNow') evict(log, pod, now, memory, now.getTime());
    return { mutations: log.mutations() };
  }
  const { fireAt } = decision.eviction;
  if (fireAt > now.getTime()) {
    evictions.schedule(key, decision.eviction);
    return { mutations: [], requeueAfterMs: fireAt - now.getTime() };
  }
  evict(log, pod, now, memory, fireAt);
  return { mutations: log.mutations() };
}

/**
 * evict is deletePodHandler: the "Marking for deletion" event on the first attempt, then addConditionAndDeletePod;
 * the first attempt counts the deletion, `fireAt` (when it was due) to now.
 */
function evict(log: MutationLog, pod: Pod, now: Date, { evictions, metrics }: Memory, fireAt: number): void {
  const key = podKey(pod);
  if (evictions.fire(key, pod.metadata.uid) === 1) {
    log.push(evictionEvent(key, false));
    metrics.podDeleted(Math.max(0, now.getTime() - fireAt) / 1000);
  }
  for (const draft of addConditionAndDeletePod(pod, now)) log.push(draft);
}
