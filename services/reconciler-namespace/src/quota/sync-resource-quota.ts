import { mutationLog, updateStatusDraft } from '@kcm-bus/k8s/mutation-drafts.ts';
import type { Decision, Lister, ReconcileInput } from '@kcm-bus/runtime/controller/index.ts';
import { RESOURCE_QUOTA_CONTROLLER } from '@kcm-bus/catalog/controllers.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { syncError } from '../write-failures.ts';
import { quotaStatus } from './evaluator/quota-status.ts';
import type { Registry } from './evaluator/registry.ts';
import type { Quota } from './quota-objects.ts';

/** RESOURCE_QUOTAS is the kind the controller writes. */
const RESOURCE_QUOTAS = watchedKind('resourcequotas');

/**
 * syncResourceQuota mirrors syncResourceQuotaFromKey: nothing for a quota gone; its status computed from the stores
 * (quotaStatus) and written when it changed (a PUT of the quota as the store holds it, refused on a conflict and
 * retried after the backoff, as upstream's UpdateStatus). The quota is looked at again after the resync period
 * (upstream's enqueueAll, the safety net). What the calculation could not read (a malformed quantity in the quota or
 * an object, which upstream's typed objects could not hold: a forged or corrupted record) is left out of the status
 * and logged as the sync's warning: retrying would read the same.
 */
export function syncResourceQuota(
  key: string,
  input: ReconcileInput,
  quotas: Lister<Quota>,
  registry: Registry,
  resyncPeriodMs: number,
): Decision {
  const failed = syncError(input.failures, (r) => r.status === 404);
  if (failed !== undefined) return { mutations: [], error: failed };
  const quota = quotas.get(key);
  if (quota === undefined) return { mutations: [] };
  const { status, dirty, errors } = quotaStatus(quota, registry);
  const log = mutationLog(RESOURCE_QUOTA_CONTROLLER.name, key, input.cause, input.now, input.attempt);
  if (dirty) log.push(updateStatusDraft(RESOURCE_QUOTAS, quota, status));
  return {
    mutations: log.mutations(),
    ...(errors.length > 0 ? { warning: errors.join(', ') } : {}),
    ...(resyncPeriodMs > 0 ? { requeueAfterMs: resyncPeriodMs } : {}),
  };
}
