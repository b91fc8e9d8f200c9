import type { ObservedKeys } from '@kcm-bus/runtime/reconcile/controller.ts';
import type { ControllerSpec, Listers, ObjectEvent } from '@kcm-bus/runtime/reconcile/declaration.ts';
import type { HandlerOutput } from '@kcm-bus/runtime/reconcile/controller.ts';
import type { ExpectationsView, Lister } from '@kcm-bus/runtime/reconcile/reconciler.ts';
import type { Pod, ReplicationController } from '@kcm-bus/k8s/core-v1.ts';
import { onPodEvent, onRcEvent } from './handlers.ts';
import { isTerminating } from '@kcm-bus/k8s/meta-v1.ts';
import { reconcileRc, type RcConfig } from './reconcile-rc.ts';

/** RcInputs are the objects reconciler-rc reads: pods and ReplicationControllers, co-partitioned by namespace. */
export type RcInputs = { readonly pods: Pod; readonly rcs: ReplicationController };

/**
 * rcControllerSpec joins the pure pieces into a controller: upstream's handlers (addPod/updatePod/deletePod,
 * addRC/updateRC/deleteRC) choose the keys, reconcileRc syncs one, and pending expectations the pods store already
 * shows done are observedInPods.
 */
export function rcControllerSpec(listers: Listers<RcInputs>, config: RcConfig): ControllerSpec<RcInputs> {
  return {
    handlers: { pods: (event) => podEvent(event, listers.rcs), rcs: rcEvent },
    reconcile: (key, input) => reconcileRc(key, { ...input, rcs: listers.rcs, pods: listers.pods, config }),
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

function podEvent(event: ObjectEvent<Pod>, rcs: Lister<ReplicationController>): HandlerOutput {
  const effect = onPodEvent(event.type, event.object, event.old, rcs);
  const o = effect.observed;
  return {
    enqueue: effect.enqueue,
    enqueueAfter: effect.enqueueAfterMs ? [effect.enqueueAfterMs] : [],
    observed: o === undefined ? [] : [{ kind: o.kind, key: o.rcKey, objectKey: o.podKey }],
  };
}

/**
 * rcEvent: a new RC syncs at its cut (once the pods topic is known complete up to when the watcher saw the RC), so it
 * adopts the pods created just before it instead of creating its own, as upstream's informers let it.
 */
export function rcEvent(event: ObjectEvent<ReplicationController>): HandlerOutput {
  const effect = onRcEvent(event.type, event.object, event.old);
  const created = event.type === 'Applied' && event.old === undefined;
  return { enqueue: created ? [] : effect.enqueue, enqueueAtCut: created ? effect.enqueue : [], deleteExpectations: effect.deleteExpectations };
}
