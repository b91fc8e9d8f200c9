import type { Namespace } from '@kcm-bus/k8s/core-v1.ts';
import type { ControllerSpec, Decision, Listers, ObjectEvent } from '@kcm-bus/runtime/controller/index.ts';
import { syncNamespaceDeletion } from './sync-namespace-deletion.ts';

/** NamespaceInputs are what the controller reads: the namespaces, whole (its writes are PUTs of them); a key is a name. */
export type NamespaceInputs = { readonly namespaces: Namespace };

/**
 * NAMESPACE_DELETION_GRACE_PERIOD_MS is namespaceDeletionGracePeriod: an event of a namespace being deleted is
 * handled 5 s later, so that admission on every apiserver sees the deletion first and refuses new content.
 */
export const NAMESPACE_DELETION_GRACE_PERIOD_MS = 5000;

/**
 * namespaceControllerSpec is upstream's NewNamespaceController: a namespace added or updated with a deletion
 * timestamp enqueues itself after the grace period (enqueueNamespace); syncNamespaceDeletion decides. Its writes'
 * results bring the content passes' reports back to the key. A namespace still being deleted after a sync is synced
 * again `syncPeriodMs` (--namespace-sync-period; 0: never) and the grace period later: upstream's informer calls
 * UpdateFunc for every namespace each resync period, and enqueueNamespace adds the grace period.
 */
export function namespaceControllerSpec(
  listers: Listers<NamespaceInputs>,
  syncPeriodMs = 0,
): ControllerSpec<NamespaceInputs> {
  return {
    handlers: {
      namespaces: (event: ObjectEvent<Namespace>) => ({
        enqueue: [],
        enqueueAfter:
          event.type !== 'Deleted' && event.object.metadata.deletionTimestamp !== undefined
            ? [{ key: event.key, ms: NAMESPACE_DELETION_GRACE_PERIOD_MS }]
            : [],
      }),
    },
    reconcile: (key, input) => {
      const decision = syncNamespaceDeletion(key, input, listers.namespaces);
      const deleting = listers.namespaces.get(key)?.metadata.deletionTimestamp !== undefined;
      return deleting && syncPeriodMs > 0
        ? resynced(decision, syncPeriodMs + NAMESPACE_DELETION_GRACE_PERIOD_MS)
        : decision;
    },
  };
}

/** resynced is the decision with the key looked at again within `ms` at the latest. */
function resynced(decision: Decision, ms: number): Decision {
  return { ...decision, requeueAfterMs: Math.min(decision.requeueAfterMs ?? ms, ms) };
}
