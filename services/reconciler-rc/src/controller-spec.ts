import type { ControllerSpec, HandlerOutput, InputEvent, ObservedKeys } from '@kcm-bus/runtime/reconcile/controller.ts';
import type { ExpectationsView, Lister } from '@kcm-bus/runtime/reconcile/reconciler.ts';
import type { Store } from '@kcm-bus/runtime/store/store.ts';
import type { Pod, ReplicationController } from './core-v1.ts';
import { CONTROLLER_NAME } from './core-v1.ts';
import { onPodEvent, onRcEvent } from './handlers.ts';
import { isTerminating } from './pod-util.ts';
import { reconcileRc, type RcConfig } from './reconcile-rc.ts';

/** PODS_TOPIC and RCS_TOPIC are reconciler-rc's co-partitioned inputs. */
export const PODS_TOPIC = 'kcm.watch.pods';
export const RCS_TOPIC = 'kcm.watch.replicationcontrollers';

/** RcStores are the controller's informer caches: pods (indexed by namespace and controller UID) and RCs. */
export type RcStores = { readonly pods: Store<Pod>; readonly rcs: Store<ReplicationController> };

/**
 * rcControllerSpec joins the pure pieces into a controller: events update the stores and go through upstream's
 * handlers (addPod/updatePod/deletePod, addRC/updateRC/deleteRC); a key is synced by reconcileRc; pending
 * expectations the pods store already shows done are observedInStores.
 */
export function rcControllerSpec(stores: RcStores, config: RcConfig): ControllerSpec {
  return {
    name: CONTROLLER_NAME,
    onEvent: (topic, event) => (topic === PODS_TOPIC ? podEvent(stores, event) : topic === RCS_TOPIC ? rcEvent(stores, event) : { enqueue: [] }),
    reconcile: (key, input) => reconcileRc(key, { ...input, rcs: stores.rcs.lister(), pods: stores.pods.lister(), config }),
    observedInStores: (_key, pending) => observedInPods(stores.pods.lister(), pending),
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

function podEvent(stores: RcStores, event: InputEvent): HandlerOutput {
  const old = stores.pods.apply({ type: event.type, key: event.key, object: event.object as Pod });
  const pod = (event.object as Pod | undefined) ?? old;
  if (pod === undefined) return { enqueue: [] };
  const effect = onPodEvent(event.type, pod, old, stores.rcs.lister());
  const o = effect.observed;
  return {
    enqueue: effect.enqueue,
    enqueueAfter: effect.enqueueAfterMs ? [effect.enqueueAfterMs] : [],
    observed: o === undefined ? [] : [{ kind: o.kind, key: o.rcKey, podKey: o.podKey }],
  };
}

function rcEvent(stores: RcStores, event: InputEvent): HandlerOutput {
  const rc = event.object as ReplicationController;
  const old = stores.rcs.apply({ type: event.type, key: event.key, object: rc });
  const effect = onRcEvent(event.type, rc, old);
  return { enqueue: effect.enqueue, forget: effect.deleteExpectations };
}
