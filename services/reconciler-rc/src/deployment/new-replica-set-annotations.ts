import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import {
  type Annotations,
  type Changed,
  copyDeploymentAnnotationsToReplicaSet,
  REVISION,
  REVISION_HISTORY,
  revision,
  setReplicasAnnotations,
  withAnnotations,
} from './annotations.ts';
import { maxSurge } from './fenceposts.ts';
import { replicasOf } from './spec.ts';

/**
 * setNewReplicaSetAnnotations mirrors deploymentutil.SetNewReplicaSetAnnotations: the Deployment's annotations copied
 * (but the skipped ones), the revision raised to newRevision when lower (the revision it had going to the revision
 * history, cut to historyLimit characters, oldest first: a rollback to this ReplicaSet), and, for a ReplicaSet
 * about to be created, the replicas annotations. An unparsable revision stops it after the copy, unchanged.
 */
export function setNewReplicaSetAnnotations(
  d: Deployment,
  rs: ReplicaSet,
  newRevision: bigint,
  exists: boolean,
  historyLimit: number,
): Changed<ReplicaSet> {
  const copied = copyDeploymentAnnotationsToReplicaSet(d, rs);
  const a: Annotations = { ...copied.object.metadata.annotations };
  const old = a[REVISION];
  const oldRevision = old === undefined || old === '' ? { value: 0n } : revision(copied.object);
  if ('error' in oldRevision) return { object: copied.object, changed: false };
  let changed = copied.changed;
  if (oldRevision.value < newRevision) {
    a[REVISION] = String(newRevision);
    changed = true;
    if (old !== undefined) appendRevisionHistory(a, old, historyLimit);
  }
  const annotated = withAnnotations(copied.object, a);
  if (exists) return { object: annotated, changed };
  const replicas = setReplicasAnnotations(annotated, replicasOf(d), replicasOf(d) + maxSurge(d));
  return { object: replicas.object, changed: changed || replicas.changed };
}

/** appendRevisionHistory adds the revision a ReplicaSet served to its history, dropping the oldest past limit characters. */
function appendRevisionHistory(a: Annotations, oldRevision: string, limit: number): void {
  const history = a[REVISION_HISTORY] ?? '';
  const oldRevisions = history.split(',');
  if (oldRevisions[0]!.length === 0) {
    a[REVISION_HISTORY] = oldRevision;
    return;
  }
  let totalLen = history.length + oldRevision.length + 1;
  let start = 0;
  for (; totalLen > limit && start < oldRevisions.length; start++) totalLen -= oldRevisions[start]!.length + 1;
  if (totalLen <= limit) a[REVISION_HISTORY] = [...oldRevisions.slice(start), oldRevision].join(',');
}
