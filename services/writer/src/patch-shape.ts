import type { PatchShape } from '@kcm-bus/runtime/catalog/index.ts';

/*
 * Where a patch writes, against the PatchShape a content rule allows: a merge patch writes its keys, a json patch
 * (RFC 6902) the JSON pointers (RFC 6901) of its operations. Fields are looked up as the shape's own properties only,
 * so a patch key such as `constructor` or `__proto__` is outside every shape.
 */

/** JsonObject is a parsed JSON object (not null, not an array). */
export type JsonObject = Readonly<Record<string, unknown>>;

/** isJsonObject is true for a parsed JSON object, false for null, arrays and scalars. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** jsonField is a parsed JSON value's field, if the value is an object (undefined otherwise). */
export const jsonField = (value: unknown, field: string): unknown => (isJsonObject(value) ? value[field] : undefined);

const fieldOf = (shape: PatchShape, field: string): true | PatchShape | undefined =>
  Object.hasOwn(shape, field) ? shape[field] : undefined;

const escapeToken = (field: string): string => field.replaceAll('~', '~0').replaceAll('/', '~1');
const unescapeToken = (token: string): string => token.replaceAll('~1', '/').replaceAll('~0', '~');

/** allowedPaths lists what a shape allows as JSON pointers, the way refusals name it. */
export function allowedPaths(shape: PatchShape, prefix = ''): string {
  return Object.entries(shape)
    .map(([field, inner]) => {
      const path = `${prefix}/${escapeToken(field)}`;
      return inner === true ? path : allowedPaths(inner, path);
    })
    .join(', ');
}

/**
 * pointerWithin is true when a json patch operation's path lies at or below a field the shape allows with `true`; a
 * path that stops above one (`/metadata` when only `/metadata/ownerReferences` is allowed) writes more, so it is not.
 */
export function pointerWithin(path: unknown, shape: PatchShape): boolean {
  if (typeof path !== 'string' || !path.startsWith('/')) return false;
  let at: true | PatchShape = shape;
  for (const token of path.slice(1).split('/')) {
    if (at === true) return true;
    const next = fieldOf(at, unescapeToken(token));
    if (next === undefined) return false;
    at = next;
  }
  return at === true;
}

/**
 * fieldOutside names, as a JSON pointer, the first field a merge patch writes outside the shape, or undefined. A
 * field the shape allows only in part must be an object in the patch: null, a list or a scalar there would delete
 * or replace the fields the shape does not allow.
 */
export function fieldOutside(patch: JsonObject, shape: PatchShape, prefix = ''): string | undefined {
  for (const [field, value] of Object.entries(patch)) {
    const allowed = fieldOf(shape, field);
    const path = `${prefix}/${escapeToken(field)}`;
    if (allowed === true) continue;
    if (allowed === undefined || !isJsonObject(value)) return path;
    const deeper = fieldOutside(value, allowed, path);
    if (deeper !== undefined) return deeper;
  }
  return undefined;
}
