import type { ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import type { LabelsMatcher } from '@kcm-bus/k8s/labels.ts';
import type { Lister } from '@kcm-bus/runtime/controller/index.ts';
import { type MutationResult, NAMESPACE_TERMINATING, writeFailed } from '@kcm-bus/runtime/mutation/index.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import { REPLICA_SETS } from './kinds.ts';

/** ALREADY_EXISTS is metav1.StatusReasonAlreadyExists. */
const ALREADY_EXISTS = 'AlreadyExists';

/**
 * DeploymentFailures sort the results of a Deployment's earlier writes that did not take effect by what upstream
 * did with the error of the same call: a ReplicaSet create into a terminating namespace (getNewReplicaSet returns
 * it, handleErr forgets it), a ReplicaSet create that failed otherwise (the FailedRSCreate condition and event), and
 * every other write's error (the sync returns it).
 */
export type DeploymentFailures = {
  readonly namespaceTerminating: boolean;
  readonly failedCreates: readonly MutationResult[];
  readonly errors: readonly string[];
};

/**
 * summarizeFailures reads the Failed, Conflict and Refused results as upstream reads the errors of the same calls,
 * and drops those it ignores: events (recorded asynchronously upstream); a create the apiserver answered
 * AlreadyExists (getNewReplicaSet then reads the store, as this sync does before every create); a delete whose UID
 * precondition failed (a recreated namesake: ours is gone, cleanupDeployment ignores NotFound); a patch answered 404
 * (ClaimObject ignores NotFound) and a release answered 422 (ReleaseReplicaSet ignores IsInvalid).
 */
export function summarizeFailures(
  results: readonly MutationResult[],
  wasRelease: (r: MutationResult) => boolean,
): DeploymentFailures {
  const failed = results.filter((r) => writeFailed(r) && !ignored(r, wasRelease));
  const creates = failed.filter((r) => r.verb === 'Create' && r.target.resource === REPLICA_SETS.plural);
  const others = failed.filter((r) => !creates.includes(r));
  return {
    namespaceTerminating: creates.some((r) => r.reason === NAMESPACE_TERMINATING),
    failedCreates: creates.filter((r) => r.reason !== NAMESPACE_TERMINATING),
    errors: others.map((r) => r.message),
  };
}

function ignored(r: MutationResult, wasRelease: (r: MutationResult) => boolean): boolean {
  switch (r.verb) {
    case 'RecordEvent':
      return true;
    case 'Create':
      return r.reason === ALREADY_EXISTS;
    case 'Delete':
      return r.outcome === 'Conflict';
    case 'Patch':
      return r.status === 404 || (r.status === 422 && wasRelease(r));
    default:
      return false;
  }
}

/**
 * releasedBy tells which of the Deployment's ReplicaSet patches was a release: ClaimReplicaSets releases only
 * ReplicaSets its selector no longer matches and adopts only ones it matches, so a patched ReplicaSet that no longer
 * matches (or is gone) was released.
 */
export function releasedBy(matches: LabelsMatcher, replicaSets: Lister<ReplicaSet>): (r: MutationResult) => boolean {
  return (r) => {
    const rs = replicaSets.get(objectKey({ namespace: r.target.namespace, name: r.target.name }));
    return rs === undefined || !matches(rs.metadata.labels);
  };
}
