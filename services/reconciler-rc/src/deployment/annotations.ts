import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import type { ObjectMeta } from '@kcm-bus/k8s/core-v1.ts';
import { MAX_INT32 } from './spec.ts';

/** REVISION is deploymentutil.RevisionAnnotation: a ReplicaSet's place in its Deployment's rollout sequence. */
export const REVISION = 'deployment.kubernetes.io/revision';

/** REVISION_HISTORY is deploymentutil.RevisionHistoryAnnotation: the older revisions a ReplicaSet has served. */
export const REVISION_HISTORY = 'deployment.kubernetes.io/revision-history';

/** DESIRED_REPLICAS is deploymentutil.DesiredReplicasAnnotation: the Deployment's replicas a ReplicaSet was sized for. */
export const DESIRED_REPLICAS = 'deployment.kubernetes.io/desired-replicas';

/** MAX_REPLICAS is deploymentutil.MaxReplicasAnnotation: replicas + maxSurge when the ReplicaSet was sized. */
export const MAX_REPLICAS = 'deployment.kubernetes.io/max-replicas';

/** DEPRECATED_ROLLBACK_TO is apps.DeprecatedRollbackTo: the revision to roll back to (extensions/v1beta1's rollbackTo). */
export const DEPRECATED_ROLLBACK_TO = 'deprecated.deployment.rollback.to';

/** MAX_REV_HISTORY_LENGTH_IN_CHARS is sync.go's maxRevHistoryLengthInChars: about 100 revisions. */
export const MAX_REV_HISTORY_LENGTH_IN_CHARS = 2000;

/** ANNOTATIONS_TO_SKIP are the annotations a Deployment and its ReplicaSets do not share (annotationsToSkip). */
const ANNOTATIONS_TO_SKIP: ReadonlySet<string> = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION,
  REVISION_HISTORY,
  DESIRED_REPLICAS,
  MAX_REPLICAS,
  DEPRECATED_ROLLBACK_TO,
]);

/** Annotations is an annotation map being edited. */
export type Annotations = Record<string, string>;

/** withAnnotations is the object with these annotations. */
export function withAnnotations<T extends { readonly metadata: ObjectMeta }>(o: T, annotations: Annotations): T {
  return { ...o, metadata: { ...o.metadata, annotations } };
}

/** ParsedInt is a parsed annotation, or the parse error. */
export type ParsedInt = { readonly value: number } | { readonly error: string };

/**
 * ParsedRevision is a parsed revision: an int64, kept exact as a bigint (a revision may pass 2^53; upstream's e2e
 * adopts a ReplicaSet at revision 3546343826724305832 and waits for ...833), or the parse error.
 */
export type ParsedRevision = { readonly value: bigint } | { readonly error: string };

const [MIN_INT64, MAX_INT64] = [-(2n ** 63n), 2n ** 63n - 1n];

/** parseInt64 mirrors strconv.ParseInt(v, 10, 64): a signed decimal within int64, or its error. */
export function parseInt64(v: string): ParsedRevision {
  if (!/^[+-]?\d+$/.test(v)) return { error: `strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax` };
  const value = BigInt(v);
  return value < MIN_INT64 || value > MAX_INT64
    ? { error: `strconv.ParseInt: parsing ${JSON.stringify(v)}: value out of range` }
    : { value };
}

/** revision mirrors deploymentutil.Revision: the revision annotation as an int64, 0 when absent. */
export function revision(o: { readonly metadata: ObjectMeta }): ParsedRevision {
  const v = o.metadata.annotations?.[REVISION];
  return v === undefined ? { value: 0n } : parseInt64(v);
}

/** revisions are the parsable revisions of these ReplicaSets (the others are skipped, as upstream logs and skips them). */
function revisions(rsList: readonly ReplicaSet[]): bigint[] {
  return rsList.flatMap((rs) => {
    const r = revision(rs);
    return 'value' in r ? [r.value] : [];
  });
}

/** maxRevision mirrors deploymentutil.MaxRevision: the highest revision, 0 for none. */
export function maxRevision(rsList: readonly ReplicaSet[]): bigint {
  return revisions(rsList).reduce((max, v) => (v > max ? v : max), 0n);
}

/** lastRevision mirrors deploymentutil.LastRevision: the second highest revision (the one before the current), 0 for none. */
export function lastRevision(rsList: readonly ReplicaSet[]): bigint {
  let [max, secMax] = [0n, 0n];
  for (const v of revisions(rsList)) {
    if (v >= max) [max, secMax] = [v, max];
    else if (v > secMax) secMax = v;
  }
  return secMax;
}

/** Changed is an object after an annotation update, and whether the update changed anything. */
export type Changed<T> = { readonly object: T; readonly changed: boolean };

/** copyDeploymentAnnotationsToReplicaSet mirrors its namesake: every annotation of the Deployment but the skipped ones. */
export function copyDeploymentAnnotationsToReplicaSet(d: Deployment, rs: ReplicaSet): Changed<ReplicaSet> {
  const a: Annotations = { ...rs.metadata.annotations };
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (ANNOTATIONS_TO_SKIP.has(k) || a[k] === v) continue;
    a[k] = v;
    changed = true;
  }
  return { object: withAnnotations(rs, a), changed };
}

/**
 * setDeploymentAnnotationsTo mirrors deploymentutil.SetDeploymentAnnotationsTo (a rollback): the Deployment keeps its
 * skipped annotations and takes every other one from the ReplicaSet it rolls back to.
 */
export function setDeploymentAnnotationsTo(d: Deployment, rollbackTo: ReplicaSet): Deployment {
  const keep = Object.entries(d.metadata.annotations ?? {}).filter(([k]) => ANNOTATIONS_TO_SKIP.has(k));
  const take = Object.entries(rollbackTo.metadata.annotations ?? {}).filter(([k]) => !ANNOTATIONS_TO_SKIP.has(k));
  return withAnnotations(d, Object.fromEntries([...keep, ...take]));
}

/** setDeploymentRevision mirrors deploymentutil.SetDeploymentRevision: the Deployment's revision annotation set. */
export function setDeploymentRevision(d: Deployment, rev: string): Changed<Deployment> {
  if (d.metadata.annotations?.[REVISION] === rev) return { object: d, changed: false };
  return { object: withAnnotations(d, { ...d.metadata.annotations, [REVISION]: rev }), changed: true };
}

/**
 * nonNegativeInt32Annotation mirrors getNonNegativeInt32FromAnnotation: an annotation holding an unsigned decimal no
 * larger than MaxInt32; undefined when absent.
 */
export function nonNegativeInt32Annotation(rs: ReplicaSet, key: string): ParsedInt | undefined {
  const v = rs.metadata.annotations?.[key];
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) return { error: `strconv.ParseUint: parsing ${JSON.stringify(v)}: invalid syntax` };
  const n = Number(v);
  if (n > 0xffffffff) return { error: `strconv.ParseUint: parsing ${JSON.stringify(v)}: value out of range` };
  if (n > MAX_INT32) return { error: `value ${n} is out of range (higher than ${MAX_INT32})` };
  return { value: n };
}

/** valueOf is getNonNegativeInt32FromAnnotationVerbose's answer: the value, or undefined when absent or invalid. */
function valueOf(parsed: ParsedInt | undefined): number | undefined {
  return parsed !== undefined && 'value' in parsed ? parsed.value : undefined;
}

/** getDesiredReplicasAnnotation mirrors its namesake: the desired-replicas annotation, if valid. */
export function getDesiredReplicasAnnotation(rs: ReplicaSet): number | undefined {
  return valueOf(nonNegativeInt32Annotation(rs, DESIRED_REPLICAS));
}

/** getMaxReplicasAnnotation mirrors its namesake: the max-replicas annotation, if valid. */
export function getMaxReplicasAnnotation(rs: ReplicaSet): number | undefined {
  return valueOf(nonNegativeInt32Annotation(rs, MAX_REPLICAS));
}

/** setReplicasAnnotations mirrors deploymentutil.SetReplicasAnnotations: desired-replicas and max-replicas set. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): Changed<ReplicaSet> {
  if (!replicasAnnotationsNeedUpdate(rs, desired, max)) return { object: rs, changed: false };
  const annotations = { ...rs.metadata.annotations, [DESIRED_REPLICAS]: String(desired), [MAX_REPLICAS]: String(max) };
  return { object: withAnnotations(rs, annotations), changed: true };
}

/** replicasAnnotationsNeedUpdate mirrors its namesake: either annotation differs from these values. */
export function replicasAnnotationsNeedUpdate(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = rs.metadata.annotations;
  return a?.[DESIRED_REPLICAS] !== String(desired) || a[MAX_REPLICAS] !== String(max);
}
