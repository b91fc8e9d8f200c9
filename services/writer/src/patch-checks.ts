import type { JsonPatchOpName, PatchShape } from '@kcm-bus/runtime/catalog/index.ts';
import type { Mutation, PatchType } from '@kcm-bus/runtime/mutation/index.ts';
import { allowedPaths, fieldOutside, isJsonObject, jsonField as fieldOf, pointerWithin } from './patch-shape.ts';

/*
 * The content checks of a Patch (ContentCheck's patchType, patchFields, patchOps), for content-checks.ts, the rules'
 * one interpreter.
 */

/**
 * Written is a mutation as the checks read it, parsed once: the object it writes (its merge, strategic merge or
 * apply patch, else its body) or, for a json patch, its operations (or why it has none).
 */
export type Written = {
  readonly m: Mutation;
  readonly object: unknown;
  readonly ops: readonly unknown[] | string | undefined;
};

export function patchType(w: Written, types: readonly PatchType[]): string | undefined {
  const type = w.m.patchType;
  return type !== null && types.includes(type) ? undefined : `a ${type ?? 'missing'} patch, not ${types.join(' or ')}`;
}

export function patchFields(w: Written, fields: PatchShape): string | undefined {
  const outside = `outside ${allowedPaths(fields)}`;
  if (typeof w.ops === 'string') return w.ops;
  if (w.ops !== undefined) {
    const op = w.ops.find((o) => !pointerWithin(fieldOf(o, 'path'), fields));
    if (op === undefined) return undefined;
    const path = fieldOf(op, 'path');
    return typeof path === 'string'
      ? `a patch of ${JSON.stringify(path)}, ${outside}`
      : 'a json patch operation without a path';
  }
  if (!isJsonObject(w.object)) return 'a patch that is not an object';
  const field = fieldOutside(w.object, fields);
  return field === undefined ? undefined : `a patch of ${field}, ${outside}`;
}

export function patchOps(w: Written, ops: readonly JsonPatchOpName[]): string | undefined {
  if (w.ops === undefined) return `a ${w.m.patchType ?? 'missing'} patch, not a json patch`;
  if (typeof w.ops === 'string') return w.ops;
  const names = w.ops.map((o) => fieldOf(o, 'op'));
  const i = names.findIndex((name) => !ops.includes(name as JsonPatchOpName));
  return i < 0 ? undefined : `a json patch ${JSON.stringify(names[i]) ?? 'unnamed'} operation, not ${ops.join(' or ')}`;
}
