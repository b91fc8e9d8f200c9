import type { Namespace, ServiceAccount } from '@kcm-bus/k8s/core-v1.ts';
import { createDraft, mutationLog, type MutationLog } from '@kcm-bus/k8s/mutation-drafts.ts';
import type { Decision, Lister, ReconcileInput } from '@kcm-bus/runtime/controller/index.ts';
import { NAMESPACE_TERMINATING } from '@kcm-bus/runtime/mutation/index.ts';
import { syncError } from '../write-failures.ts';
import { SERVICEACCOUNT_CONTROLLER } from '@kcm-bus/catalog/controllers.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';

/** SERVICE_ACCOUNTS is the kind the controller creates. */
export const SERVICE_ACCOUNTS = watchedKind('serviceaccounts');

/** DEFAULT_SERVICE_ACCOUNTS are DefaultServiceAccountsControllerOptions' accounts: `default` in every namespace. */
export const DEFAULT_SERVICE_ACCOUNTS: readonly string[] = ['default'];

/**
 * ServiceAccountsView is what syncNamespace reads: the stores of namespaces and service accounts (by namespace), and
 * the names of the accounts to ensure (ServiceAccountsControllerOptions.ServiceAccounts).
 */
export type ServiceAccountsView = {
  readonly namespaces: Lister<Namespace>;
  readonly serviceAccounts: Lister<ServiceAccount>;
  readonly accounts: readonly string[];
};

/**
 * syncNamespace mirrors ServiceAccountsController.syncNamespace: a namespace that is gone or not Active gets nothing;
 * an Active one gets each account to ensure that its store does not hold. The writes of an earlier sync that failed
 * make this sync an error, retried after the workqueue's backoff (upstream returns the aggregate of the failed
 * creates); AlreadyExists and a create refused because the namespace is terminating are no failure, as upstream's.
 */
export function syncNamespace(key: string, input: ReconcileInput, view: ServiceAccountsView): Decision {
  const log = mutationLog(SERVICEACCOUNT_CONTROLLER.name, key, input.cause, input.now, input.attempt);
  const error = syncError(input.failures, (r) => r.reason === NAMESPACE_TERMINATING);
  if (error !== undefined) return { mutations: [], error };
  if (view.namespaces.get(key)?.status?.phase !== 'Active') return { mutations: [] };
  for (const name of view.accounts) ensure(log, key, name, view.serviceAccounts);
  return { mutations: log.mutations() };
}

function ensure(log: MutationLog, namespace: string, name: string, serviceAccounts: Lister<ServiceAccount>): void {
  if (serviceAccounts.get(`${namespace}/${name}`) !== undefined) return;
  log.push(createDraft(SERVICE_ACCOUNTS, namespace, { metadata: { name, namespace } }));
}
