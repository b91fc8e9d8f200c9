import type { Namespace, ServiceAccount } from '@kcm-bus/k8s/core-v1.ts';
import type { ControllerSpec, Listers, ObjectEvent } from '@kcm-bus/runtime/controller/index.ts';
import { DEFAULT_SERVICE_ACCOUNTS, syncNamespace } from './sync-namespace.ts';

/** ServiceAccountsInputs are what the controller reads, co-partitioned by namespace; a key is a namespace's name. */
export type ServiceAccountsInputs = { readonly namespaces: Namespace; readonly serviceAccounts: ServiceAccount };

/**
 * serviceAccountsControllerSpec is upstream's NewServiceAccountsController: a namespace added or updated enqueues
 * itself (namespaceAdded, namespaceUpdated), a deleted service account its namespace (serviceAccountDeleted), and
 * syncNamespace decides which of `accounts` to create.
 */
export function serviceAccountsControllerSpec(
  listers: Listers<ServiceAccountsInputs>,
  accounts: readonly string[] = DEFAULT_SERVICE_ACCOUNTS,
): ControllerSpec<ServiceAccountsInputs> {
  return {
    handlers: {
      namespaces: (event: ObjectEvent<Namespace>) => ({ enqueue: event.type === 'Deleted' ? [] : [event.key] }),
      serviceAccounts: (event: ObjectEvent<ServiceAccount>) => ({
        enqueue: event.type === 'Deleted' && event.object.metadata.namespace ? [event.object.metadata.namespace] : [],
      }),
    },
    reconcile: (key, input) => syncNamespace(key, input, { ...listers, accounts }),
  };
}
