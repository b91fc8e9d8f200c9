import { type MutationResult, objectNameOf, type Mutation } from '@kcm-bus/runtime/mutation/index.ts';
import type { Final } from './outcome.ts';
import { MAX_RESULT_MESSAGE_LENGTH, truncateMessage } from './truncate-message.ts';

/** REFUSED_NOT_ALLOWED is the reason of a Refused result for a mutation outside the allowlist. */
export const REFUSED_NOT_ALLOWED = 'NotAllowed';

/** REFUSED_CONTENT is the reason of a Refused result for an allowed verb and resource carrying what its controller may not write. */
export const REFUSED_CONTENT = 'ContentNotAllowed';

/** FAILED_INTERNAL is the reason of a Failed result for a mutation the writer could not carry through itself. */
export const FAILED_INTERNAL = 'InternalError';

/** REFUSED_SPAM_FILTERED is the reason of a Refused result for an event the spam filter dropped (upstream: silently). */
export const REFUSED_SPAM_FILTERED = 'EventSpamFiltered';

/**
 * resultOf is the MutationResult of a mutation the writer sent: the final verdict after `attempts` requests for
 * the object named `name`, answered at `appliedAt` (RFC 3339); the message is cut to MAX_RESULT_MESSAGE_LENGTH.
 */
export function resultOf(
  m: Mutation,
  name: string,
  verdict: Final,
  attempts: number,
  appliedAt: string,
): MutationResult {
  return {
    ...identity(m),
    outcome: verdict.outcome,
    status: verdict.status,
    reason: verdict.reason,
    message: truncateMessage(verdict.message, MAX_RESULT_MESSAGE_LENGTH),
    name,
    resourceVersion: verdict.resourceVersion,
    uid: verdict.uid,
    attempts,
    appliedAt,
  };
}

/**
 * refusedResult is the MutationResult of a mutation the writer did not send (reason REFUSED_NOT_ALLOWED,
 * REFUSED_CONTENT or REFUSED_SPAM_FILTERED): status 0, no request, so a reconciler still learns the write did not happen. name is the
 * object's the mutation would have written (a refused Create's derived name lowers its owner's expectations);
 * null for an event, whose name the correlator chooses.
 */
export function refusedResult(m: Mutation, reason: string, message: string, appliedAt: string): MutationResult {
  return unsent(m, 'Refused', reason, message, appliedAt);
}

/**
 * failedResult is the Failed result (reason FAILED_INTERNAL, status 0) of a mutation whose application threw: the
 * reconciler learns the write did not happen, and the writer goes on with the next record.
 */
export function failedResult(m: Mutation, message: string, appliedAt: string): MutationResult {
  return unsent(m, 'Failed', FAILED_INTERNAL, message, appliedAt);
}

function unsent(
  m: Mutation,
  outcome: 'Refused' | 'Failed',
  reason: string,
  message: string,
  appliedAt: string,
): MutationResult {
  const name = m.verb === 'RecordEvent' ? null : objectNameOf(m);
  return {
    ...identity(m),
    outcome,
    status: 0,
    reason,
    message: truncateMessage(message, MAX_RESULT_MESSAGE_LENGTH),
    name,
    resourceVersion: null,
    uid: null,
    attempts: 0,
    appliedAt,
  };
}

/** notAllowedMessage says who may not do what, in the allowlist's own terms. */
export function notAllowedMessage(m: Pick<Mutation, 'controller' | 'verb'>, resource: string): string {
  return `${m.controller} may not ${m.verb} ${resource} (not in the writer's allowlist)`;
}

function identity(m: Mutation): Pick<MutationResult, 'mutationId' | 'controller' | 'verb' | 'target' | 'reconcileKey'> {
  return { mutationId: m.id, controller: m.controller, verb: m.verb, target: m.target, reconcileKey: m.reconcileKey };
}
