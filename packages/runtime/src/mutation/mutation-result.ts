import type { MutationTarget, MutationVerb } from './mutation.ts';

/**
 * OUTCOMES are the writer's verdicts on a mutation, published on `kcm.mutation-results` (a string on the wire, so
 * a new outcome stays decodable by old readers):
 * - Applied: the apiserver accepted the write (2xx);
 * - AlreadyDone: the effect already holds, typically a replay (Create → AlreadyExists, Delete → NotFound);
 * - Conflict: a precondition or resourceVersion no longer holds; the reconciler re-reads and decides again;
 * - Refused: the writer did not send it (not in the allowlist, or an event dropped by the spam filter);
 * - Failed: the apiserver rejected it (403, 422, …) or retries ran out; upstream's FailedCreate/FailedDelete case.
 */
export const OUTCOMES = ['Applied', 'AlreadyDone', 'Conflict', 'Refused', 'Failed'] as const;

/** Outcome is one of OUTCOMES. */
export type Outcome = (typeof OUTCOMES)[number];

/**
 * NAMESPACE_TERMINATING is v1.NamespaceTerminatingCause, the cause a create into a terminating namespace fails with
 * (403). The writer reports it as the result's reason; upstream's controllers treat it as nothing to do
 * (errors.HasStatusCause), and so do ours.
 */
export const NAMESPACE_TERMINATING = 'NamespaceTerminating';

/**
 * LIVE_CHECK_FAILED is the reason of the Refused result of a write whose grant's live check (what the API says when the
 * writer applies it) forbids it: a token Secret's account exists after all, or is gone. Its controller's next event
 * decides again.
 */
export const LIVE_CHECK_FAILED = 'LiveCheckFailed';

/**
 * CREATE_EXPIRED is the reason of the Refused result of a Create older than the writer's --max-create-age: its
 * controller's expectation of it has expired and the controller may have decided again, so applying it now could
 * create twice (a writer back from a long outage, a record replayed by whoever can produce to kcm.mutations). Like
 * a slow-start skip it is no failure to report: the expectation is lowered and the next sync decides.
 */
export const CREATE_EXPIRED = 'CreateExpired';

/**
 * MutationResult is the writer's record of one mutation. Reconcilers read it to lower expectations when a write
 * did not happen (upstream: CreationObserved/DeletionObserved after a failed create/delete), which is why it
 * repeats verb and target. status is the final HTTP status, 0 when no answer came (refused, unreachable); reason is
 * the apiserver Status reason (`AlreadyExists`, `Invalid`, …), or a more specific Status cause
 * (`NamespaceTerminating`), or the writer's own (`NotAllowed`, `EventSpamFiltered`). name is the object's name as
 * the writer sent it, or would have for a refused write (derived for a generateName Create, the Event's own for a
 * RecordEvent), null for a refused RecordEvent; uid and resourceVersion are the object's after the write. attempts counts HTTP requests sent; appliedAt is the RFC 3339 time of the final answer.
 */
export type MutationResult = {
  readonly mutationId: string;
  readonly controller: string;
  readonly verb: MutationVerb;
  readonly target: MutationTarget;
  readonly outcome: Outcome;
  readonly status: number;
  readonly reason: string | null;
  readonly message: string;
  readonly name: string | null;
  readonly resourceVersion: string | null;
  readonly uid: string | null;
  readonly attempts: number;
  readonly appliedAt: string;
  /** reconcileKey is the mutation's, copied: the reconcile key this result concerns. */
  readonly reconcileKey: string | null;
  /** contentReport is what a DeleteNamespaceContent found and left (absent or null on every other result). */
  readonly contentReport?: NamespaceContentReport | null;
};

/** ResourceCount is a number of objects of one resource (upstream's gvr.Resource and gvr.Group) or finalizer. */
export type ResourceCount = { readonly resource: string; readonly group: string; readonly count: number };

/**
 * NamespaceContentReport is what the writer's pass of upstream's deleteAllContent over a terminating namespace found:
 * the estimate of the seconds until what remains is gone (graceful pod termination; 15 s while finalizers hold
 * objects), the objects left per resource and per finalizer, and the errors of the pass, as upstream's
 * namespaceConditionUpdater receives them: the discovery error (with the number of failing group versions when it
 * was a partial discovery failure, ErrGroupDiscoveryFailed; null otherwise), the group version parsing error, and
 * each resource's deletion error. The namespace controller turns it into the namespace's conditions and decides.
 */
export type NamespaceContentReport = {
  readonly estimateSeconds: number;
  readonly remaining: readonly ResourceCount[];
  readonly finalizers: readonly { readonly finalizer: string; readonly count: number }[];
  readonly discoveryError: string | null;
  readonly discoveryFailedGroups: number | null;
  readonly groupVersionError: string | null;
  readonly deleteContentErrors: readonly string[];
};

/**
 * writeFailed: the write did not take effect, neither Applied nor AlreadyDone (a Conflict, a refusal, a failure): the
 * results a controller's next sync reports, as upstream's call would have returned an error.
 */
export function writeFailed(r: Pick<MutationResult, 'outcome'>): boolean {
  return r.outcome !== 'Applied' && r.outcome !== 'AlreadyDone';
}
