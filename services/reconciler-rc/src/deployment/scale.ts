import type { ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { replicasAnnotationsNeedUpdate, setReplicasAnnotations } from './annotations.ts';
import { maxSurge } from './fenceposts.ts';
import { getReplicaSetProportion } from './proportions.ts';
import {
  byCreationTimestamp,
  bySizeNewer,
  bySizeOlder,
  filterActiveReplicaSets,
  findActiveOrLatest,
  isSaturated,
  replicaCount,
  sorted,
} from './replica-sets.ts';
import { isRollingUpdate, replicasOf } from './spec.ts';
import type { SyncContext } from './sync-context.ts';

/**
 * scale mirrors sync.go scale, run on a scaling event or for a paused Deployment: a single active (or else the
 * newest) ReplicaSet takes all the replicas; a saturated new ReplicaSet leaves the old ones none; otherwise a rolling
 * Deployment's change of size is spread over its active ReplicaSets in proportion to their sizes.
 */
export function scale(s: SyncContext, newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): void {
  const d = s.view.deployment;
  const activeOrLatest = findActiveOrLatest(newRS, oldRSs);
  if (activeOrLatest !== undefined) {
    if (replicasOf(activeOrLatest) !== replicasOf(d)) scaleReplicaSet(s, activeOrLatest, replicasOf(d), false);
    return;
  }
  // FindActiveOrLatest left upstream's oldRSs sorted newest first.
  const newestFirst = sorted(oldRSs, (a, b) => byCreationTimestamp(b, a));
  if (isSaturated(d, newRS)) {
    for (const old of filterActiveReplicaSets(newestFirst)) scaleReplicaSet(s, old, 0, false);
    return;
  }
  if (isRollingUpdate(d)) scaleProportionally(s, filterActiveReplicaSets([...newestFirst, newRS]));
}

/**
 * scaleProportionally is scale's rolling case: the replicas to add (or remove, when negative) up to replicas +
 * maxSurge are shared by proportion, the larger ReplicaSets first (newer first when adding, older when removing), and
 * what rounding leaves over goes to the first; every ReplicaSet is then written with its size and annotations.
 */
function scaleProportionally(s: SyncContext, allRSs: readonly ReplicaSet[]): void {
  const d = s.view.deployment;
  const allowedSize = replicasOf(d) > 0 ? replicasOf(d) + maxSurge(d) : 0;
  const toAdd = allowedSize - replicaCount(allRSs);
  const ordered = toAdd > 0 ? sorted(allRSs, bySizeNewer) : toAdd < 0 ? sorted(allRSs, bySizeOlder) : allRSs;
  let added = 0;
  const sizes = ordered.map((rs) => {
    const proportion = toAdd === 0 ? 0 : getReplicaSetProportion(rs, d, toAdd, added);
    added += proportion;
    return replicasOf(rs) + proportion;
  });
  if (toAdd !== 0 && sizes.length > 0) sizes[0] = Math.max(0, sizes[0]! + toAdd - added);
  ordered.forEach((rs, i) => scaleReplicaSet(s, rs, sizes[i]!, true));
}

/** ScaleResult is scaleReplicaSet's answer: whether the size changed, and the ReplicaSet as the view now holds it. */
export type ScaleResult = { readonly scaled: boolean; readonly rs: ReplicaSet };

/**
 * scaleReplicaSet mirrors sync.go scaleReplicaSet on the view's ReplicaSet: unless forced, only a change of size is
 * written; forced, a change of the replicas annotations is too. The write carries the new size and the Deployment's
 * desired-replicas and max-replicas annotations, and a change of size is announced (ScalingReplicaSet) once written.
 */
export function scaleReplicaSet(s: SyncContext, target: ReplicaSet, newScale: number, force: boolean): ScaleResult {
  const rs = s.view.current(target);
  const d = s.view.deployment;
  const [oldScale, desired, max] = [replicasOf(rs), replicasOf(d), replicasOf(d) + maxSurge(d)];
  const sizeNeedsUpdate = oldScale !== newScale;
  if (!sizeNeedsUpdate && (!force || !replicasAnnotationsNeedUpdate(rs, desired, max))) return { scaled: false, rs };
  const resized = { ...rs, spec: { ...rs.spec, replicas: newScale } };
  const updated = setReplicasAnnotations(resized, desired, max).object;
  const direction = oldScale < newScale ? 'up' : 'down';
  const message = `Scaled ${direction} replica set ${rs.metadata.name} from ${oldScale} to ${newScale}`;
  s.view.updateReplicaSet(
    updated,
    sizeNeedsUpdate ? s.view.eventDraft('Normal', 'ScalingReplicaSet', message) : undefined,
  );
  return { scaled: sizeNeedsUpdate, rs: updated };
}
