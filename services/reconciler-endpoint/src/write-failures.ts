import type { Endpoints } from '@kcm-bus/k8s/core-v1.ts';
import { type MutationLog, recordEventDraft } from '@kcm-bus/k8s/mutation-drafts.ts';
import { type MutationResult, NAMESPACE_TERMINATING, writeFailed } from '@kcm-bus/runtime/mutation/index.ts';
import type { Lister } from '@kcm-bus/runtime/controller/index.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import { ENDPOINTS, EVENT_SOURCE } from './endpoints-controller.ts';

/**
 * recordWriteFailures records the Warning events syncService records when its write fails: FailedToCreateEndpoint
 * or FailedToUpdateEndpoint with the apiserver's message, about the Endpoints, and returns the error syncService
 * returns (the first failure's message). A create refused because the namespace is terminating is dropped
 * silently, no error, as upstream; a failed delete records nothing (upstream returns the error only). The writes
 * are retried by the key's next sync, after the runtime's backoff.
 */
export function recordWriteFailures(
  log: MutationLog,
  failures: readonly MutationResult[],
  endpoints: Lister<Endpoints>,
): string | undefined {
  let error: string | undefined;
  for (const r of failures) {
    if (r.target.resource !== ENDPOINTS.plural || !writeFailed(r)) continue;
    if (r.verb === 'Create' && r.reason === NAMESPACE_TERMINATING) continue;
    error ??= `${r.verb} ${r.target.namespace}/${r.target.name}: ${r.message}`;
    const ref = `${r.target.namespace}/${r.target.name}`;
    if (r.verb === 'Create') {
      const message = `Failed to create endpoint for service ${ref}: ${r.message}`;
      log.push(recordEventDraft(EVENT_SOURCE, involved(r, undefined), 'Warning', 'FailedToCreateEndpoint', message));
    }
    if (r.verb === 'Update') {
      const message = `Failed to update endpoint ${ref}: ${r.message}`;
      log.push(
        recordEventDraft(
          EVENT_SOURCE,
          involved(r, endpoints.get(objectKey(r.target))),
          'Warning',
          'FailedToUpdateEndpoint',
          message,
        ),
      );
    }
  }
  return error;
}

function involved(
  r: MutationResult,
  current: Endpoints | undefined,
): { apiVersion: string; kind: string; metadata: Endpoints['metadata'] } {
  const metadata = current?.metadata ?? { namespace: r.target.namespace ?? '', name: r.target.name, uid: '' };
  return { apiVersion: ENDPOINTS.apiVersion, kind: ENDPOINTS.kind, metadata };
}
