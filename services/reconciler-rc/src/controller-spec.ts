import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import { isTerminating } from '@kcm-bus/k8s/meta-v1.ts';
import type {
  HandlerOutput,
  ObservedKeys,
  ControllerSpec,
  Listers,
  ObjectEvent,
  ExpectationsView,
  Lister,
} from '@kcm-bus/runtime/controller/index.ts';
import { onPodEvent, onSetEvent } from './handlers.ts';
import type { ReplicaSetKind, ReplicaSetLike } from './replica-set-kind.ts';
import { type ReplicaSetConfig, syncReplicaSet } from './sync-replica-set.ts';

/** SetInputs are the objects a ReplicaSet manager reads: pods and its sets (ReplicaSets or RCs), co-partitioned by namespace. */
export type SetInputs = { readonly pods: Pod; readonly sets: ReplicaSetLike };

/**
 * replicaSetControllerSpec joins the pure pieces into the controller of one kind: upstream's handlers
 * (addPod/updatePod/deletePod, addRS/updateRS/deleteRS) choose the keys, syncReplicaSet syncs one, and pending
 * expectations the pods store already shows done are observedInPods.
 */
export function replicaSetControllerSpec(
  kind: ReplicaSetKind,
  listers: Listers<SetInputs>,
  config: ReplicaSetConfig,
): ControllerSpec<SetInputs> {
  return {
    handlers: { pods: (event) => podEvent(kind, event, listers.sets), sets: setEvent },
    reconcile: (key, input) => syncReplicaSet(key, { ...input, kind, sets: listers.sets, pods: listers.pods, config }),
    observedInStores: (_key, pending) => observedInPods(listers.pods, pending),
  };
}

/**
 * observedInPods: an expected pod that is in the store was created; an expected deletion whose pod is gone or
 * terminating happened (the store is synced past every record the sync that expected it had seen).
 */
export function observedInPods(pods: Lister<Pod>, pending: ExpectationsView): ObservedKeys {
  const creates = pending.pendingCreates.filter((key) => pods.get(key) !== undefined);
  const deletes = pending.pendingDeletes.filter((key) => {
    const pod = pods.get(key);
    return pod === undefined || isTerminating(pod.metadata);
  });
  return { creates, deletes };
}

function podEvent(kind: ReplicaSetKind, event: ObjectEvent<Pod>, sets: Lister<ReplicaSetLike>): HandlerOutput {
  const effect = onPodEvent(kind, event.type, event.object, event.old, sets);
  const o = effect.observed;
  return {
    enqueue: effect.enqueue,
    enqueueAfter: effect.enqueueAfterMs ? [effect.enqueueAfterMs] : [],
    observed: o === undefined ? [] : [{ kind: o.kind, key: o.setKey, objectKey: o.podKey }],
  };
}

/**
 * setEvent: a new set syncs at its cut (once the pods topic is known complete up to when the watcher saw it), so it
 * adopts the pods created just before it instead of creating its own, as upstream's informers let it.
 */
export function setEvent(event: ObjectEvent<ReplicaSetLike>): HandlerOutput {
  const effect = onSetEvent(event.type, event.object, event.old);
  const created = event.type === 'Applied' && event.old === undefined;
  return {
    enqueue: created ? [] : effect.enqueue,
    enqueueAtCut: created ? effect.enqueue : [],
    deleteExpectations: effect.deleteExpectations,
  };
}
