import type { Namespace } from '@kcm-bus/k8s/core-v1.ts';
import type { ControllerSpec, Listers, ObjectEvent } from '@kcm-bus/runtime/controller/index.ts';
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
 * results bring the content passes' reports back to the key.
 */
export function namespaceControllerSpec(listers: Listers<NamespaceInputs>): ControllerSpec<NamespaceInputs> {
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
    reconcile: (key, input) => syncNamespaceDeletion(key, input, listers.namespaces),
  };
}
