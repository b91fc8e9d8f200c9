import { CREATE_EXPIRED, type MutationResult, type Mutation } from '@kcm-bus/runtime/mutation/index.ts';
import type { Scheduler } from '@kcm-bus/runtime/workqueue/index.ts';
import { type Allowlist, allows, resourceOf } from './allowlist.ts';
import type { RetryPolicy } from './backoff.ts';
import type { EventCorrelator } from './event-correlator.ts';
import { eventCreateRequest, eventRequest } from './event-request.ts';
import { checkLive } from './live-checks.ts';
import { fieldManagerOf, toRequest } from './request.ts';
import { type KubeApi, type RequestGate, send } from './send.ts';
import { populateToken, type TokenKeys } from './token/populate-token.ts';
import { deleteNamespaceContent } from './namespace/delete-content.ts';
import { finalizeNamespace } from './namespace/finalize-namespace.ts';
import { ownVerdict } from './outcome.ts';
import type { LiveFacts } from './live-checks.ts';
import type { Json } from './send.ts';
import { contentRefusal } from './content-rules.ts';
import {
  notAllowedMessage,
  REFUSED_CONTENT,
  REFUSED_NOT_ALLOWED,
  REFUSED_SPAM_FILTERED,
  refusedResult,
  resultOf,
} from './result.ts';

/**
 * WriterDeps are applyMutation's collaborators: the API port, the budget every request passes, the allowlist,
 * the event correlator, a scheduler for retry waits, the wall clock (RFC 3339) for appliedAt, a random source
 * for jitter, the retry policy, and an optional signal that stops retrying on shutdown.
 */
export type WriterDeps = {
  readonly api: KubeApi;
  readonly budget: RequestGate;
  readonly allowlist: Allowlist;
  readonly correlator: EventCorrelator;
  readonly scheduler: Scheduler;
  readonly now: () => string;
  readonly random: () => number;
  readonly policy: RetryPolicy;
  readonly signal?: AbortSignal;
  /** maxCreateAgeMs: a Create whose createdAt is older is refused (CREATE_EXPIRED); absent or 0, none is. */
  readonly maxCreateAgeMs?: number;
  /** tokens are the keys PopulateToken needs; absent, every PopulateToken is refused. */
  readonly tokens?: TokenKeys;
};

/**
 * applyMutation carries one validated mutation to its result: refused if the allowlist does not grant it, a
 * content rule forbids what it carries (contentRefusal) or it is a Create older than maxCreateAgeMs, or stopped by its
 * grant's live check (checkLive: what the API says now), otherwise sent (every attempt through the budget), retried
 * per the policy and classified; a PopulateToken is built from the live Secret and filled then (populateToken), a
 * DeleteNamespaceContent is a pass over the live namespace's content (deleteContent), a FinalizeNamespace a PUT of the
 * live namespace without its finalizer (finalizeNamespace). RecordEvent goes through the correlator (create, patch, or
 * drop, with client-go's fallback from a 404 patch to a create). An event attached to another verb is recorded only when that write is
 * Applied (recordOutcomeEvent). When the signal aborts during retries it rejects with the signal's reason and
 * publishes nothing: the mutation stays uncommitted and the partition's next owner applies it again (idempotently).
 */
export async function applyMutation(m: Mutation, deps: WriterDeps): Promise<MutationResult> {
  if (!allows(deps.allowlist, m))
    return refusedResult(m, REFUSED_NOT_ALLOWED, notAllowedMessage(m, resourceOf(m)), deps.now());
  const refusal = contentRefusal(m);
  if (refusal !== undefined) return refusedResult(m, REFUSED_CONTENT, refusal, deps.now());
  const age = m.verb === 'Create' ? Date.parse(deps.now()) - Date.parse(m.createdAt) : 0;
  if (deps.maxCreateAgeMs !== undefined && deps.maxCreateAgeMs > 0 && age > deps.maxCreateAgeMs) {
    return refusedResult(
      m,
      CREATE_EXPIRED,
      `created ${Math.round(age / 1000)} s ago, past --max-create-age: its expectation has expired`,
      deps.now(),
    );
  }
  if (m.verb === 'RecordEvent') return recordEvent(m, deps);
  const live = await checkLive(m, deps);
  if (live.type === 'Stop') return resultOf(m, m.target.name, live.verdict, live.attempts, deps.now());
  if (m.verb === 'DeleteNamespaceContent') return deleteContent(m, live.facts!, live.attempts, deps);
  if (m.verb === 'FinalizeNamespace') {
    const { verdict, attempts } = await finalizeNamespace(m, live.facts!, deps);
    return resultOf(m, m.target.name, verdict, live.attempts + attempts, deps.now());
  }
  if (m.verb === 'PopulateToken') {
    const { verdict, attempts } = await populateToken(m, live.facts!, deps.tokens, deps);
    return resultOf(m, m.target.name, verdict, live.attempts + attempts, deps.now());
  }
  const request = toRequest(m);
  const { verdict, attempts } = await send(request, m.controller, deps);
  const result = resultOf(m, request.name, verdict, live.attempts + attempts, deps.now());
  if (result.outcome === 'Applied' && m.event !== null) void recordOutcomeEvent(m, deps);
  return result;
}

/**
 * deleteContent runs one pass of deleteAllContent over the namespace the live check read (terminating, since its
 * deletion timestamp): Applied, with the pass's report for the namespace controller to decide on; attempts count the
 * check's read and every request of the pass.
 */
async function deleteContent(m: Mutation, facts: LiveFacts, read: number, deps: WriterDeps): Promise<MutationResult> {
  const deletedAt = new Date(String((facts.object['metadata'] as Json)['deletionTimestamp']));
  const clock = (): Date => new Date(deps.now());
  const { report, attempts } = await deleteNamespaceContent(m.target.name, deletedAt, m.controller, { ...deps, clock });
  const left = report.remaining.reduce((n, r) => n + r.count, 0);
  const message = `content pass: ${left} objects left, estimate ${report.estimateSeconds} s`;
  const verdict = ownVerdict('Applied', 200, null, message);
  return { ...resultOf(m, m.target.name, verdict, read + attempts, deps.now()), contentReport: report };
}

/**
 * recordOutcomeEvent mirrors RealPodControl's Recorder.Eventf after a call that succeeded (SuccessfulCreate,
 * SuccessfulDelete): the mutation's attached event, stamped now, as a RecordEvent the allowlist must grant too.
 * Asynchronous and best effort, as client-go's broadcaster: the write's result does not wait for it, its own result
 * is not published, and a failure (or the writer stopping) is dropped. Its request still takes a budget token.
 */
async function recordOutcomeEvent(m: Mutation, deps: WriterDeps): Promise<void> {
  const { namespace, name } = m.event!.involvedObject;
  const target = { apiVersion: 'v1', kind: 'Event', namespace, name, resource: 'events', subresource: null };
  const event: Mutation = {
    ...m,
    verb: 'RecordEvent',
    target,
    body: null,
    patch: null,
    patchType: null,
    createdAt: deps.now(),
  };
  if (!allows(deps.allowlist, event)) return;
  await recordEvent(event, deps).catch(() => undefined);
}

/** recordEvent mirrors client-go recordToSink/recordEvent for one correlated event. */
async function recordEvent(m: Mutation, deps: WriterDeps): Promise<MutationResult> {
  const write = deps.correlator.correlate(m.event!, m.createdAt);
  if (write.type === 'Drop')
    return refusedResult(
      m,
      REFUSED_SPAM_FILTERED,
      'event dropped by the spam filter (25 per source and object, then 1 per 5 minutes)',
      deps.now(),
    );
  const manager = fieldManagerOf(m);
  let { verdict, attempts } = await send(eventRequest(write, manager), m.controller, deps);
  if (write.type === 'Patch' && verdict.status === 404) {
    const created = await send(eventCreateRequest(write.event, manager), m.controller, deps);
    verdict = created.verdict;
    attempts += created.attempts;
  }
  if (verdict.outcome === 'Applied')
    deps.correlator.updateState({ ...write.event, resourceVersion: verdict.resourceVersion });
  return resultOf(m, write.event.name, verdict, attempts, deps.now());
}
