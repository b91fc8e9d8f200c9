import type { Mutation, Outcome } from '@kcm-bus/runtime/mutation/index.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import type { ObjectEventType } from '@kcm-bus/schemas/watch-record.ts';
import type { ObjectMeta } from './core-v1.ts';
import { applyJsonPatch, JsonPatchError } from './json-patch.fixture.ts';
import type { JsonPatchOp } from './json-patch.ts';

/** KubeObject is any object the fake API holds: metadata, and whatever else its kind has. */
export type KubeObject = { readonly metadata: ObjectMeta };

/**
 * Verdict is the fake apiserver's answer to one write: the result's outcome, HTTP status and message, the object's
 * name (the generated one of a Create) and the watch event the write causes.
 */
export type Verdict = {
  readonly outcome: Outcome;
  readonly status: number;
  readonly message?: string;
  readonly name?: string;
  readonly event?: {
    readonly type: ObjectEventType;
    readonly object: KubeObject;
    readonly old: KubeObject | undefined;
  };
};

/** CreateContext is what a Create needs besides the objects: the name given, the clock, the knobs and a resourceVersion source. */
export type CreateContext = {
  readonly name: string;
  readonly now: Date;
  readonly rv: () => string;
  readonly writeError: string | undefined;
  readonly createLimit: number | undefined;
};

/**
 * createObject stores the Create's body under its name (a generateName is already resolved by the caller), in the
 * target's namespace, with a uid, a resourceVersion and a creationTimestamp; a quota of createLimit objects of the resource refuses it (403).
 */
export function createObject(objects: Map<string, KubeObject>, m: Mutation, ctx: CreateContext): Verdict {
  const { name, writeError, createLimit } = ctx;
  if (writeError !== undefined) return { outcome: 'Failed', status: 500, message: writeError, name };
  if (createLimit !== undefined && objects.size >= createLimit) {
    return {
      outcome: 'Failed',
      status: 403,
      message: `${m.target.resource} "${name}" is forbidden: exceeded quota: ${m.target.resource}`,
      name,
    };
  }
  const body = JSON.parse(m.body!) as KubeObject;
  const namespace = m.target.namespace === null ? {} : { namespace: m.target.namespace };
  const metadata = {
    ...body.metadata,
    ...namespace,
    name,
    uid: `uid-${name}`,
    resourceVersion: ctx.rv(),
    creationTimestamp: ctx.now.toISOString(),
  };
  const object = { ...body, metadata };
  objects.set(objectKey({ namespace: m.target.namespace, name }), object);
  return { outcome: 'Applied', status: 201, name, event: { type: 'Applied', object, old: undefined } };
}

/** removeObject is a Delete with its UID precondition: gone already is AlreadyDone, another UID a Conflict. */
export function removeObject(
  objects: Map<string, KubeObject>,
  key: string,
  m: Mutation,
  writeError: string | undefined,
): Verdict {
  const object = objects.get(key);
  if (object === undefined) return { outcome: 'AlreadyDone', status: 404 };
  if (m.preconditions.uid !== null && object.metadata.uid !== m.preconditions.uid)
    return { outcome: 'Conflict', status: 409, message: 'Precondition failed: UID in precondition' };
  if (writeError !== undefined) return { outcome: 'Failed', status: 500, message: writeError };
  objects.delete(key);
  return { outcome: 'Applied', status: 200, event: { type: 'Deleted', object, old: object } };
}

/**
 * patchObject applies a json patch as the apiserver does, the writer's UID test first: a failed test is a Conflict,
 * a second controller owner reference is Invalid (ValidateOwnerReferences), and the result is served as JSON would
 * serve it (an empty ownerReferences list omitted).
 */
export function patchObject(
  objects: Map<string, KubeObject>,
  key: string,
  m: Mutation,
  writeError: string | undefined,
  rv: () => string,
): Verdict {
  const object = objects.get(key);
  if (object === undefined)
    return { outcome: 'Failed', status: 404, message: `${m.target.resource} "${m.target.name}" not found` };
  if (writeError !== undefined) return { outcome: 'Failed', status: 500, message: writeError };
  if (m.patchType !== 'json') throw new Error(`the fake API applies json patches only, not ${m.patchType}`);
  const uidTest: JsonPatchOp[] =
    m.preconditions.uid === null ? [] : [{ op: 'test', path: '/metadata/uid', value: m.preconditions.uid }];
  let next: KubeObject;
  try {
    next = applyJsonPatch(object, [...uidTest, ...(JSON.parse(m.patch!) as JsonPatchOp[])]);
  } catch (err) {
    if (err instanceof JsonPatchError) return { outcome: 'Conflict', status: 422, message: err.message };
    throw err;
  }
  if ((next.metadata.ownerReferences ?? []).filter((r) => r.controller === true).length > 1) {
    return {
      outcome: 'Failed',
      status: 422,
      message: 'metadata.ownerReferences: Invalid value: Only one reference can have Controller set to true',
    };
  }
  const { ownerReferences, ...meta } = next.metadata;
  const served =
    ownerReferences === undefined || ownerReferences === null || ownerReferences.length === 0
      ? meta
      : { ...meta, ownerReferences };
  const patched = { ...next, metadata: { ...served, resourceVersion: rv() } };
  objects.set(key, patched);
  return { outcome: 'Applied', status: 200, event: { type: 'Applied', object: patched, old: object } };
}

/**
 * updateObject is an Update or an UpdateStatus with its resourceVersion precondition (409 when the object changed
 * since): UpdateStatus takes the body's status and annotations (status strategies reset the spec, and some the
 * labels, but let annotation changes through: the deployment controller writes its revision annotation so),
 * Update everything but the status (a status subresource's split between the two).
 */
export function updateObject(
  objects: Map<string, KubeObject>,
  key: string,
  m: Mutation,
  writeError: string | undefined,
  rv: () => string,
): Verdict {
  const object = objects.get(key) as (KubeObject & { readonly status?: unknown }) | undefined;
  if (object === undefined)
    return { outcome: 'Failed', status: 404, message: `${m.target.resource} "${m.target.name}" not found` };
  if (object.metadata.resourceVersion !== m.preconditions.resourceVersion)
    return { outcome: 'Conflict', status: 409, message: 'the object has been modified' };
  if (writeError !== undefined) return { outcome: 'Failed', status: 500, message: writeError };
  const { status, ...rest } = JSON.parse(m.body!) as KubeObject & { readonly status?: unknown };
  const next =
    m.verb === 'UpdateStatus'
      ? { ...withAnnotationsOf(object, rest), ...(status === undefined ? {} : { status }) }
      : { ...rest, ...(object.status === undefined ? {} : { status: object.status }) };
  const updated = { ...next, metadata: { ...next.metadata, resourceVersion: rv() } };
  objects.set(key, updated);
  return { outcome: 'Applied', status: 200, event: { type: 'Applied', object: updated, old: object } };
}

/** withAnnotationsOf is the object with the body's annotations (none when the body has none). */
function withAnnotationsOf<T extends KubeObject>(object: T, body: KubeObject): T {
  const { annotations: _old, ...meta } = object.metadata;
  const annotations = body.metadata.annotations;
  return { ...object, metadata: annotations === undefined ? meta : { ...meta, annotations } };
}
