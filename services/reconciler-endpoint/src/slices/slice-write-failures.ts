import type { Service } from '@kcm-bus/k8s/core-v1.ts';
import { ENDPOINT_SLICES } from '@kcm-bus/k8s/discovery-v1.ts';
import { type MutationResult, NAMESPACE_TERMINATING, writeFailed } from '@kcm-bus/runtime/mutation/index.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';

/**
 * sliceWriteFailure is the error Reconciler.finalize returns for the previous sync's first failed write, as its
 * message words it (`failed to create EndpointSlice for Service ns/name: …`, `failed to update <slice> EndpointSlice
 * …`, `failed to delete …`); a create refused because the namespace is terminating is no error (upstream drops the
 * Service). undefined: every write took effect.
 */
export function sliceWriteFailure(failures: readonly MutationResult[], service: Service): string | undefined {
  const ref = objectKey(service.metadata);
  for (const r of failures) {
    if (r.target.resource !== ENDPOINT_SLICES.plural || !writeFailed(r)) continue;
    if (r.verb === 'Create' && r.reason === NAMESPACE_TERMINATING) continue;
    if (r.verb === 'Create') return `failed to create EndpointSlice for Service ${ref}: ${r.message}`;
    if (r.verb === 'Update') return `failed to update ${r.target.name} EndpointSlice for Service ${ref}: ${r.message}`;
    if (r.verb === 'Delete') return `failed to delete ${r.target.name} EndpointSlice for Service ${ref}: ${r.message}`;
  }
  return undefined;
}

/**
 * aggregateError is utilerrors.NewAggregate(errs).Error() as Reconcile's nested aggregates print: the distinct
 * messages, alone when one, else `[a, b]`; undefined when none.
 */
export function aggregateError(errors: readonly string[]): string | undefined {
  const distinct = [...new Set(errors)];
  if (distinct.length === 0) return undefined;
  return distinct.length === 1 ? distinct[0] : `[${distinct.join(', ')}]`;
}

/** failedToUpdateMessage is syncService's FailedToUpdateEndpointSlices event message for a failed Reconcile. */
export function failedToUpdateMessage(service: Service, error: string): string {
  return `Error updating Endpoint Slices for Service ${objectKey(service.metadata)}: ${error}`;
}
