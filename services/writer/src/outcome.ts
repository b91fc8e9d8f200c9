import { type Outcome, NAMESPACE_TERMINATING } from '@kcm-bus/runtime/mutation/index.ts';
import { type ApiAnswer, hasStatusCause, readAnswer } from './api-status.ts';
import { backoffDelay } from '@kcm-bus/runtime/flowcontrol/index.ts';
import { retryAfterMs, type RetryPolicy } from './backoff.ts';
import type { KubeRequest } from './request.ts';

/**
 * HttpAnswer is what came back for one request: a Response (status, Retry-After header, body text), or NoResponse
 * when none did (timeout, connection refused or reset), which `apply.kube.ts` reports instead of throwing.
 */
export type HttpAnswer =
  | { readonly type: 'Response'; readonly status: number; readonly retryAfter: string | null; readonly body: string }
  | { readonly type: 'NoResponse'; readonly message: string };

/** Final is a verdict that ends a mutation: its outcome and what the answer said (status 0: no answer). */
export type Final = {
  readonly type: 'Final';
  readonly outcome: Outcome;
  readonly status: number;
  readonly reason: string | null;
  readonly message: string;
  readonly uid: string | null;
  readonly resourceVersion: string | null;
};

/** Retryable is an answer worth another try: 429, 408, 5xx or no answer; retryAfterMs from the header if any. */
export type Retryable = {
  readonly type: 'Retryable';
  readonly status: number;
  readonly reason: string | null;
  readonly message: string;
  readonly retryAfterMs: number | null;
};

/** Retry tells the caller to send the same request again after delayMs. */
export type Retry = {
  readonly type: 'Retry';
  readonly delayMs: number;
  readonly status: number;
  readonly message: string;
};

/**
 * classify reads one answer as upstream's controllers read client-go errors: 2xx Applied; a POST's 409
 * AlreadyExists and a DELETE's 404 are AlreadyDone (the effect holds: a replay); any other 409 is a Conflict
 * (stale resourceVersion, UID precondition failed), and so is a 422 that is really a failed precondition
 * (metadata.uid "field is immutable" from a patch, a bare 422 from a json patch's test ops); 429, 408, 5xx and no
 * answer are Retryable; every other status (400, 403, 404, 422 …) Failed with the Status message.
 */
export function classify(
  request: Pick<KubeRequest, 'method' | 'preconditionTests'>,
  answer: HttpAnswer,
): Final | Retryable {
  if (answer.type === 'NoResponse')
    return { type: 'Retryable', status: 0, reason: null, message: answer.message, retryAfterMs: null };
  const { status } = answer;
  const read = readAnswer(answer.body);
  if (status >= 200 && status < 300) return final('Applied', status, read);
  if (status === 429 || status === 408 || status >= 500) {
    return {
      type: 'Retryable',
      status,
      reason: read.reason,
      message: messageOf(status, read),
      retryAfterMs: retryAfterMs(answer.retryAfter),
    };
  }
  return final(failureOutcome(request, status, read), status, read);
}

function failureOutcome(
  request: Pick<KubeRequest, 'method' | 'preconditionTests'>,
  status: number,
  read: ApiAnswer,
): Outcome {
  if (status === 409) return request.method === 'POST' && read.reason === 'AlreadyExists' ? 'AlreadyDone' : 'Conflict';
  if (status === 404 && request.method === 'DELETE') return 'AlreadyDone';
  if (status === 422 && isFailedPrecondition(request, read)) return 'Conflict';
  return 'Failed';
}

/** isFailedPrecondition tells a 422 caused by our preconditions (see request.ts) from a genuinely invalid object. */
function isFailedPrecondition(request: Pick<KubeRequest, 'preconditionTests'>, read: ApiAnswer): boolean {
  if (read.causes.some((c) => c.field === 'metadata.uid')) return true;
  return request.preconditionTests && read.causes.length === 0;
}

/**
 * ownVerdict is a Final the writer reaches itself, from what it read rather than from a write's answer (a live check's
 * refusal, a Secret that needs nothing): no object's uid or resourceVersion.
 */
export function ownVerdict(outcome: Outcome, status: number, reason: string | null, message: string): Final {
  return { type: 'Final', outcome, status, reason, message, uid: null, resourceVersion: null };
}

function final(outcome: Outcome, status: number, read: ApiAnswer): Final {
  const reason = hasStatusCause(read, NAMESPACE_TERMINATING) ? NAMESPACE_TERMINATING : read.reason;
  return {
    type: 'Final',
    outcome,
    status,
    reason,
    message: messageOf(status, read),
    uid: read.uid,
    resourceVersion: read.resourceVersion,
  };
}

function messageOf(status: number, read: ApiAnswer): string {
  return read.message ?? (status >= 200 && status < 300 ? '' : `HTTP ${status}`);
}

/**
 * nextStep decides after `attempts` requests: a Final stands; a Retryable becomes a Retry after Retry-After (capped
 * at policy.capMs) or the backoff, until maxAttempts requests were sent, and then Failed with the last answer.
 */
export function nextStep(
  verdict: Final | Retryable,
  attempts: number,
  policy: RetryPolicy,
  random: () => number,
): Final | Retry {
  if (verdict.type === 'Final') return verdict;
  if (attempts >= policy.maxAttempts) {
    const message = `gave up after ${attempts} attempts: ${verdict.message}`;
    return {
      type: 'Final',
      outcome: 'Failed',
      status: verdict.status,
      reason: verdict.reason,
      message,
      uid: null,
      resourceVersion: null,
    };
  }
  const delayMs = backoffDelay(policy, attempts - 1, random, verdict.retryAfterMs);
  return { type: 'Retry', delayMs, status: verdict.status, message: verdict.message };
}
