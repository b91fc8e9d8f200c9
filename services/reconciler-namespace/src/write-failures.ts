import type { Decision } from '@kcm-bus/runtime/controller/index.ts';
import { type MutationResult, writeFailed } from '@kcm-bus/runtime/mutation/index.ts';

/**
 * syncError is the error a sync reports for the writes of an earlier sync that did not take effect, `ignored` ones
 * aside (upstream returns the failed calls' errors, aggregated): undefined when there are none. The key is then retried
 * after the workqueue's backoff.
 */
function syncError(failures: readonly MutationResult[], ignored: (r: MutationResult) => boolean): string | undefined {
  const failed = failures.filter((r) => writeFailed(r) && !ignored(r));
  if (failed.length === 0) return undefined;
  return failed.map((r) => `${r.verb} ${r.target.namespace}/${r.target.name}: ${r.message}`).join(', ');
}

/**
 * failedSyncEnd is how a sync that reports failed writes ends: it is the end of upstream's sync whose calls failed, so
 * it writes nothing. With a failure not `ignored`, the sync's error (retried after the backoff); with only ignored
 * ones (a create into a namespace gone or terminating, which upstream's sync returns nil on), nothing, until the next
 * event: deciding again here would repeat the same write at the pipeline's pace. Undefined: no failure to report.
 */
export function failedSyncEnd(
  failures: readonly MutationResult[],
  ignored: (r: MutationResult) => boolean,
): Decision | undefined {
  if (!failures.some(writeFailed)) return undefined;
  const error = syncError(failures, ignored);
  return error === undefined ? { mutations: [] } : { mutations: [], error };
}
