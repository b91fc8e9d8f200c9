import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import type { LabelsMatcher } from '@kcm-bus/k8s/labels.ts';
import { type MutationResult, NAMESPACE_TERMINATING, writeFailed } from '@kcm-bus/runtime/mutation/index.ts';
import type { Lister } from '@kcm-bus/runtime/controller/index.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';

/**
 * FailureSummary sorts the results of this set's earlier mutations that did not take effect by what upstream did
 * with the error of the same call: claim (AdoptPod/ReleasePod patches; the sync aborts), create and delete (the
 * manageReplicas error: events, ReplicaFailure condition), status (the updateReplicaSetStatus error). Each entry is
 * the apiserver's message.
 */
export type FailureSummary = {
  readonly claim: readonly string[];
  readonly create: readonly string[];
  readonly delete: readonly string[];
  readonly status: readonly string[];
};

/**
 * summarizeFailures reads the results that did not take effect (Failed, Conflict, and Refused: a write the writer
 * would not send fails every time, so it must back off like any error, not loop) the way upstream reads the errors
 * of the same calls: a create into a terminating namespace counts as success (manageReplicas returns nil, no
 * event); a delete whose UID precondition failed met a recreated namesake, so ours is gone, like NotFound; a patch
 * answered 404 is ignored (ClaimObject ignores NotFound), and so is a release answered 422 (ReleasePod ignores
 * IsInvalid: the pod lost our ref or was recreated; crm:251-261); any other failed patch is a claim error.
 */
export function summarizeFailures(
  failures: readonly MutationResult[],
  wasRelease: (r: MutationResult) => boolean = () => false,
): FailureSummary {
  const failed = failures.filter(writeFailed);
  const pods = failed.filter((r) => r.target.resource === 'pods');
  const claimError = (r: MutationResult): boolean =>
    r.verb === 'Patch' && r.status !== 404 && !(r.status === 422 && wasRelease(r));
  return {
    claim: pods.filter(claimError).map((r) => `pod ${r.target.namespace}/${r.target.name}: ${r.message}`),
    create: pods.filter((r) => r.verb === 'Create' && r.reason !== NAMESPACE_TERMINATING).map((r) => r.message),
    delete: pods.filter((r) => r.verb === 'Delete' && r.outcome === 'Failed').map((r) => r.message),
    status: failed.filter((r) => r.verb === 'UpdateStatus').map((r) => r.message),
  };
}

/**
 * releasedBy tells which of the set's pod patches was a ReleasePod: claimObjects releases only pods the selector no
 * longer matches and adopts only pods it matches, so a patched pod that no longer matches (or is gone) was released.
 */
export function releasedBy(matches: LabelsMatcher, pods: Lister<Pod>): (r: MutationResult) => boolean {
  return (r) => {
    const pod = pods.get(objectKey({ namespace: r.target.namespace, name: r.target.name }));
    return pod === undefined || !matches(pod.metadata.labels);
  };
}
