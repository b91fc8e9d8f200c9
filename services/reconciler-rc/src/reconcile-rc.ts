import { getCondition } from '@kcm-bus/k8s/conditions.ts';
import type { Pod, ReplicationController, ReplicationControllerStatus } from '@kcm-bus/k8s/core-v1.ts';
import { isTerminating } from '@kcm-bus/k8s/meta-v1.ts';
import { type MutationLog, mutationLog, patchDraft, updateStatusDraft } from '@kcm-bus/k8s/mutation-drafts.ts';
import { isPodActive } from '@kcm-bus/k8s/pod-util.ts';
import type { MutationCause } from '@kcm-bus/runtime/mutation/mutation.ts';
import type { MutationResult } from '@kcm-bus/runtime/mutation/mutation-result.ts';
import type { ExpectationsView, Lister, ReconcileResult } from '@kcm-bus/runtime/reconcile/reconciler.ts';
import { claimPods } from './claim-pods.ts';
import { type FailureSummary, releasedBy, summarizeFailures } from './failures.ts';
import { type ManageError, manageReplicas, type ManageResult, reportFailures } from './manage-replicas.ts';
import { filterPodsByOwner } from './rc-lookup.ts';
import { calculateStatus, nextAvailabilityCheckMs, REPLICA_FAILURE, statusToWrite } from './rc-status.ts';
import { CONTROLLER_NAME, PODS, RCS } from './replication-controller.ts';

/** RcConfig is the controller's tunables, named as upstream's (BurstReplicas = 500). */
export type RcConfig = { readonly burstReplicas: number };

/** DEFAULT_RC_CONFIG is upstream's: replicationcontroller.BurstReplicas = 500. */
export const DEFAULT_RC_CONFIG: RcConfig = { burstReplicas: 500 };

/**
 * RcInput is everything one reconcile of an RC reads: the listers (pods indexed by `namespace` and by controller
 * `controllerUID`), the key's expectations, the Failed/Conflict results of this RC's mutations since the last
 * reconcile, the clock, the config and the input offsets the mutations will name as their cause.
 */
export type RcInput = {
  readonly rcs: Lister<ReplicationController>;
  readonly pods: Lister<Pod>;
  readonly expectations: ExpectationsView;
  readonly failures: readonly MutationResult[];
  readonly now: Date;
  readonly config: RcConfig;
  readonly cause: readonly MutationCause[];
  /** attempt is the Controller's count of syncs since the cause changed (ReconcileInput.attempt); default 0. */
  readonly attempt?: number;
  /** fresh: the stores are known complete up to when an earlier sync asked for a fresh read (ReconcileInput.fresh). */
  readonly fresh: boolean;
};

/**
 * reconcileRc mirrors replica_set.go syncReplicaSet for one RC key, pure: an RC gone drops its expectations; else
 * claim the active candidate pods (adopt/release patches; a sync that adopts writes only its patches), manage
 * replicas when expectations are satisfied and the RC is not being deleted, and write the status when it changed
 * (no availability requeue after an error). Results of earlier mutations that failed come in
 * as `failures` and stand for the errors upstream's calls returned: a failed claim aborts the sync, a failed
 * create/delete is the manage error (events, ReplicaFailure, no writes this round), a failed status write is
 * retried; any of them makes the result an `error` (rate-limited requeue).
 * Where upstream reads the RC live (canAdopt's uncached GET before the first adoption; the GET before the status
 * update's one retry), the sync asks for a fresh read and acts in the next, whose stores are known complete up to
 * that moment (`input.fresh`): adopting for an RC deleted meanwhile would hand the pod to the garbage collector.
 */
export function reconcileRc(key: string, input: RcInput): ReconcileResult {
  const rc = input.rcs.get(key);
  if (rc === undefined) return { mutations: [], expectations: { type: 'DeleteExpectations' } };
  const failures = summarizeFailures(input.failures, releasedBy(rc, input.pods));
  const log = mutationLog(CONTROLLER_NAME, key, input.cause, input.now, input.attempt);
  if (failures.claim.length > 0) return claimFailed(rc, failures, log);
  const candidates = filterPodsByOwner(input.pods, rc).filter(isPodActive);
  const { claimed, actions } = claimPods(rc, candidates);
  const adopts = actions.some((a) => a.type === 'Adopt');
  if (adopts && !input.fresh) return { ...adopting(rc, failures, log), freshRead: true };
  for (const a of actions) log.push(patchDraft(PODS, a.pod.metadata, a.ops));
  if (adopts) return adopting(rc, failures, log);
  const manage = manageOrReport(rc, claimed, failures, input, log);
  const status = calculateStatus(rc, claimed, manage.error ?? pendingFailure(rc, manage), input.now);
  const retryStatus = failures.status.length > 0 && !input.fresh;
  const write = statusToWrite(rc, status);
  if (write !== undefined && !retryStatus) log.push(updateStatusDraft(RCS, rc, write));
  const statusError = failures.status.length > 0 ? `failed to update status: ${failures.status[0]}` : undefined;
  const error = statusError ?? manage.error?.message;
  const requeueAfterMs = error === undefined ? availabilityRequeue(rc, claimed, status, input.now) : undefined;
  return withOptional({ mutations: log.mutations(), expectations: manage.expectations, error, requeueAfterMs, freshRead: retryStatus || undefined });
}

/**
 * adopting ends a sync that publishes adoption patches: an adopted pod counts as owned only once its patch has
 * applied (upstream counts it when AdoptPod returned nil, in the same sync), so manageReplicas and the status wait
 * for the next sync, which the patched pod's update wakes. Failures of the previous round are still reported.
 */
function adopting(rc: ReplicationController, failures: FailureSummary, log: MutationLog): ReconcileResult {
  const reported = reportFailures(rc, failures, log);
  return withOptional({ mutations: log.mutations(), error: reported?.message });
}

/**
 * claimFailed is syncReplicaSet returning claimPods's aggregated error before anything else: no writes, no status.
 * Failed creates or deletes of the same earlier round still get their events, so none goes unreported.
 */
function claimFailed(rc: ReplicationController, failures: FailureSummary, log: MutationLog): ReconcileResult {
  reportFailures(rc, failures, log);
  return { mutations: log.mutations(), error: `failed to claim pods: ${failures.claim.join('; ')}` };
}

/**
 * manageOrReport is syncReplicaSet's "if rsNeedsSync && rs.DeletionTimestamp == nil { manageReplicas }" with the
 * failures of the previous round reported first: a reported failure is this round's manage error and no writes
 * are attempted (the rate-limited requeue is the backoff between create attempts).
 */
function manageOrReport(rc: ReplicationController, claimed: readonly Pod[], failures: FailureSummary, input: RcInput, log: MutationLog): ManageResult {
  const reported = reportFailures(rc, failures, log);
  if (reported !== undefined) return { error: reported };
  if (!input.expectations.satisfied || isTerminating(rc.metadata)) return {};
  const { rcs, pods, now, config } = input;
  return manageReplicas(rc, claimed, { rcs, pods, now, burstReplicas: config.burstReplicas, log });
}

/**
 * pendingFailure keeps a ReplicaFailure condition through a sync that retries the writes: upstream learns their
 * outcome in the same sync and removes the condition only after they succeed; here the outcome arrives one sync
 * later, and removing it now would flap the condition (each flap an RC event, each event an immediate sync that
 * bypasses the backoff). The condition goes once a sync issues no writes and reports no failure.
 */
function pendingFailure(rc: ReplicationController, manage: ManageResult): ManageError | undefined {
  const failure = getCondition(rc.status ?? { replicas: 0 }, REPLICA_FAILURE);
  if (failure === undefined || manage.expectations === undefined) return undefined;
  return { reason: failure.reason === 'FailedDelete' ? 'FailedDelete' : 'FailedCreate', message: failure.message ?? '' };
}

/**
 * availabilityRequeue mirrors syncReplicaSet's last step (reached only without a manage or status-update error):
 * with minReadySeconds and some ready pods not yet available, look again when the first becomes available
 * (FindMinNextPodAvailabilityCheck, falling back to minReadySeconds). v1.37.2 adds no skew second here.
 */
function availabilityRequeue(rc: ReplicationController, pods: readonly Pod[], status: ReplicationControllerStatus, now: Date): number | undefined {
  const minReadySeconds = rc.spec.minReadySeconds ?? 0;
  if (minReadySeconds <= 0 || status.readyReplicas === status.availableReplicas) return undefined;
  return nextAvailabilityCheckMs(pods, minReadySeconds, now) ?? minReadySeconds * 1000;
}

type Optional = { -readonly [K in keyof ReconcileResult]?: ReconcileResult[K] | undefined };

/** withOptional drops the undefined optional fields (exactOptionalPropertyTypes: absent, not undefined). */
function withOptional(r: Optional & Pick<ReconcileResult, 'mutations'>): ReconcileResult {
  return Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as ReconcileResult;
}
