import { type MutationResult, writeFailed } from '@kcm-bus/runtime/mutation/index.ts';

/**
 * syncError is the error a sync reports for the writes of an earlier sync that did not take effect, `ignored` ones
 * aside (upstream returns the failed calls' errors, aggregated): undefined when there are none. The key is then retried
 * after the workqueue's backoff.
 */
export function syncError(
  failures: readonly MutationResult[],
  ignored: (r: MutationResult) => boolean,
): string | undefined {
  const failed = failures.filter((r) => writeFailed(r) && !ignored(r));
  if (failed.length === 0) return undefined;
  return failed.map((r) => `${r.verb} ${r.target.namespace}/${r.target.name}: ${r.message}`).join(', ');
}
