import { getCondition } from '@kcm-bus/k8s/conditions.ts';
import type { ReplicaSetStatus } from '@kcm-bus/k8s/apps-v1.ts';
import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import type { LabelsMatcher } from '@kcm-bus/k8s/labels.ts';
import { controllerOf, isTerminating } from '@kcm-bus/k8s/meta-v1.ts';
import { type MutationLog, mutationLog, patchDraft, updateStatusDraft } from '@kcm-bus/k8s/mutation-drafts.ts';
import { isPodActive } from '@kcm-bus/k8s/pod-util.ts';
import type { MutationCause, MutationResult } from '@kcm-bus/runtime/mutation/index.ts';
import type { ExpectationsView, Lister, Decision } from '@kcm-bus/runtime/controller/index.ts';
import { claimObjects } from './claim-objects.ts';
import { withOptional } from './decision.ts';
import { type FailureSummary, releasedBy, summarizeFailures } from './failures.ts';
import { type ManageError, manageReplicas, type ManageResult, reportFailures } from './manage-replicas.ts';
import { PODS, type ReplicaSetKind, type ReplicaSetLike } from './replica-set-kind.ts';
import { filterPodsByOwner } from './set-lookup.ts';
import { calculateStatus, nextAvailabilityCheckMs, REPLICA_FAILURE, statusToWrite } from './set-status.ts';

/** ReplicaSetConfig is the controller's tunables, named as upstream's (BurstReplicas = 500). */
export type ReplicaSetConfig = { readonly burstReplicas: number };

/** DEFAULT_REPLICA_SET_CONFIG is upstream's: replicaset.BurstReplicas = replicationcontroller.BurstReplicas = 500. */
export const DEFAULT_REPLICA_SET_CONFIG: ReplicaSetConfig = { burstReplicas: 500 };

/**
 * SyncInput is everything one sync of a set reads: its kind, the listers (pods indexed by `namespace` and by
 * controller, sets by namespace and `controllerUID`), the key's expectations, the Failed/Conflict results of this
 * set's mutations since the last sync, the clock, the config and the input offsets the mutations will name as their
 * cause.
 */
export type SyncInput = {
  readonly kind: ReplicaSetKind;
  readonly sets: Lister<ReplicaSetLike>;
  readonly pods: Lister<Pod>;
  readonly expectations: ExpectationsView;
  readonly failures: readonly MutationResult[];
  readonly now: Date;
  readonly config: ReplicaSetConfig;
  readonly cause: readonly MutationCause[];
  /** attempt is the Controller's count of syncs since the cause changed (ReconcileInput.attempt); default 0. */
  readonly attempt?: number;
  /** fresh: the stores are known complete up to when an earlier sync asked for a fresh read (ReconcileInput.fresh). */
  readonly fresh: boolean;
};

/**
 * syncReplicaSet mirrors replica_set.go syncReplicaSet for one key of the kind, pure: a set gone drops its
 * expectations; a selector LabelSelectorAsSelector refuses is warned about and not requeued; else claim the active
 * candidate pods (adopt/release patches; a sync that adopts writes only its patches), manage replicas when
 * expectations are satisfied and the set is not being deleted, and write the status when it changed (no availability
 * requeue after an error). Results of earlier mutations that failed come in as `failures` and stand for the errors
 * upstream's calls returned: a failed claim aborts the sync, a failed create/delete is the manage error (events,
 * ReplicaFailure, no writes this round), a failed status write is retried; any of them makes the result an `error`
 * (rate-limited requeue). Where upstream reads the set live (canAdopt's uncached GET before the first adoption; the
 * GET before the status update's one retry), the sync asks for a fresh read and acts in the next, whose stores are
 * known complete up to that moment (`input.fresh`): adopting for a set deleted meanwhile would hand the pod to the
 * garbage collector.
 */
export function syncReplicaSet(key: string, input: SyncInput): Decision {
  const set = input.sets.get(key);
  if (set === undefined) return { mutations: [], expectations: { type: 'DeleteExpectations' } };
  const selector = input.kind.selector(set);
  if ('error' in selector)
    return {
      mutations: [],
      warning: `error converting pod selector to selector for ${input.kind.owner.kind} ${key}: ${selector.error}`,
    };
  const failures = summarizeFailures(input.failures, releasedBy(selector.matches, input.pods));
  const log = mutationLog(input.kind.controller, key, input.cause, input.now, input.attempt);
  if (failures.claim.length > 0) return claimFailed(input.kind, set, failures, log);
  const owned = filterPodsByOwner(input.kind, input.pods, set);
  const { claimed, actions } = claimObjects(set, input.kind.owner, selector.matches, owned.filter(isPodActive));
  const adopts = actions.some((a) => a.type === 'Adopt');
  if (adopts && !input.fresh) return { ...adopting(input.kind, set, failures, log), freshRead: true };
  for (const a of actions) log.push(patchDraft(PODS, a.object.metadata, a.ops));
  if (adopts) return adopting(input.kind, set, failures, log);
  const manage = manageOrReport(set, claimed, failures, input, log);
  const terminating = input.kind.terminatingReplicas ? claimedTerminating(set, selector.matches, owned) : undefined;
  const status = calculateStatus(set, claimed, terminating, manage.error ?? pendingFailure(set, manage), input.now);
  return finish(set, status, { claimed, failures, manage, input, log });
}

/**
 * finish writes the status when it changed (not while a failed status write waits for its fresh read) and ends the
 * sync: a status write's failure wins over the manage error (both requeue rate-limited), and only a clean sync plans
 * the next availability check.
 */
function finish(
  set: ReplicaSetLike,
  status: ReplicaSetStatus,
  s: {
    readonly claimed: readonly Pod[];
    readonly failures: FailureSummary;
    readonly manage: ManageResult;
    readonly input: SyncInput;
    readonly log: MutationLog;
  },
): Decision {
  const retryStatus = s.failures.status.length > 0 && !s.input.fresh;
  const write = statusToWrite(set, status);
  if (write !== undefined && !retryStatus) s.log.push(updateStatusDraft(s.input.kind.objects, set, write));
  const statusError = s.failures.status.length > 0 ? `failed to update status: ${s.failures.status[0]}` : undefined;
  const error = statusError ?? s.manage.error?.message;
  const requeueAfterMs = error === undefined ? availabilityRequeue(set, s.claimed, status, s.input.now) : undefined;
  return withOptional({
    mutations: s.log.mutations(),
    expectations: s.manage.expectations,
    error,
    requeueAfterMs,
    freshRead: retryStatus || undefined,
  });
}

/** claimedTerminating mirrors FilterTerminatingPods + FilterClaimedPods: the set's own matching pods that are being deleted and not yet terminal. */
function claimedTerminating(set: ReplicaSetLike, matches: LabelsMatcher, pods: readonly Pod[]): readonly Pod[] {
  const terminal = (p: Pod): boolean => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
  return pods.filter(
    (p) =>
      isTerminating(p.metadata) &&
      !terminal(p) &&
      controllerOf(p.metadata)?.uid === set.metadata.uid &&
      matches(p.metadata.labels),
  );
}

/**
 * adopting ends a sync that publishes adoption patches: an adopted pod counts as owned only once its patch has
 * applied (upstream counts it when AdoptPod returned nil, in the same sync), so manageReplicas and the status wait
 * for the next sync, which the patched pod's update wakes. Failures of the previous round are still reported.
 */
function adopting(kind: ReplicaSetKind, set: ReplicaSetLike, failures: FailureSummary, log: MutationLog): Decision {
  const reported = reportFailures(kind, set, failures, log);
  return withOptional({ mutations: log.mutations(), error: reported?.message });
}

/**
 * claimFailed is syncReplicaSet returning ClaimPods's aggregated error before anything else: no writes, no status.
 * Failed creates or deletes of the same earlier round still get their events, so none goes unreported.
 */
function claimFailed(kind: ReplicaSetKind, set: ReplicaSetLike, failures: FailureSummary, log: MutationLog): Decision {
  reportFailures(kind, set, failures, log);
  return { mutations: log.mutations(), error: `failed to claim pods: ${failures.claim.join('; ')}` };
}

/**
 * manageOrReport is syncReplicaSet's "if rsNeedsSync && rs.DeletionTimestamp == nil { manageReplicas }" with the
 * failures of the previous round reported first: a reported failure is this round's manage error and no writes
 * are attempted (the rate-limited requeue is the backoff between create attempts).
 */
function manageOrReport(
  set: ReplicaSetLike,
  claimed: readonly Pod[],
  failures: FailureSummary,
  input: SyncInput,
  log: MutationLog,
): ManageResult {
  const reported = reportFailures(input.kind, set, failures, log);
  if (reported !== undefined) return { error: reported };
  if (!input.expectations.satisfied || isTerminating(set.metadata)) return {};
  const { kind, sets, pods, now, config } = input;
  return manageReplicas(set, claimed, { kind, sets, pods, now, burstReplicas: config.burstReplicas, log });
}

/**
 * pendingFailure keeps a ReplicaFailure condition through a sync that retries the writes: upstream learns their
 * outcome in the same sync and removes the condition only after they succeed; here the outcome arrives one sync
 * later, and removing it now would flap the condition (each flap a set event, each event an immediate sync that
 * bypasses the backoff). The condition goes once a sync issues no writes and reports no failure.
 */
function pendingFailure(set: ReplicaSetLike, manage: ManageResult): ManageError | undefined {
  const failure = getCondition(set.status ?? { replicas: 0 }, REPLICA_FAILURE);
  if (failure === undefined || manage.expectations === undefined) return undefined;
  return {
    reason: failure.reason === 'FailedDelete' ? 'FailedDelete' : 'FailedCreate',
    message: failure.message ?? '',
  };
}

/**
 * availabilityRequeue mirrors syncReplicaSet's last step (reached only without a manage or status-update error):
 * with minReadySeconds and some ready pods not yet available, look again when the first becomes available
 * (FindMinNextPodAvailabilityCheck, falling back to minReadySeconds). v1.37.2 adds no skew second here.
 */
function availabilityRequeue(
  set: ReplicaSetLike,
  pods: readonly Pod[],
  status: ReplicaSetStatus,
  now: Date,
): number | undefined {
  const minReadySeconds = set.spec.minReadySeconds ?? 0;
  if (minReadySeconds <= 0 || status.readyReplicas === status.availableReplicas) return undefined;
  return nextAvailabilityCheckMs(pods, minReadySeconds, now) ?? minReadySeconds * 1000;
}
