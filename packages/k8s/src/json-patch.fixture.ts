import type { JsonPatchOp } from './json-patch.ts';
import { jsonEqual } from './json-equal.ts';

/** JsonPatchError is a patch the apiserver would refuse: a `test` op failed, or a path does not exist. */
export class JsonPatchError extends Error {
  override readonly name = 'JsonPatchError';
}

type Json = Record<string, unknown> | unknown[];

/**
 * applyJsonPatch applies RFC 6902 test/add/replace/remove ops as the apiserver's evanphx/json-patch v4 does
 * (including its quirk the adoption guard relies on: `test` of a missing member against null passes) and returns
 * the patched copy; the input is not changed.
 */
export function applyJsonPatch<T>(doc: T, ops: readonly JsonPatchOp[]): T {
  const copy = structuredClone(doc) as unknown as Json;
  for (const op of ops) applyOp(copy, op);
  return copy as unknown as T;
}

function applyOp(doc: Json, op: JsonPatchOp): void {
  const parts = op.path.split('/').slice(1);
  const last = parts.pop()!;
  const parent = parts.reduce<unknown>((node, p) => (node as Record<string, unknown> | undefined)?.[p], doc) as
    Json | undefined;
  if (parent === undefined || parent === null || typeof parent !== 'object')
    throw new JsonPatchError(`missing path: ${op.path}`);
  if (op.op === 'test') return test(parent, last, op.value, op.path);
  if (Array.isArray(parent)) return applyToArray(parent, last, op);
  const obj = parent as Record<string, unknown>;
  if (op.op !== 'add' && !Object.hasOwn(obj, last)) throw new JsonPatchError(`missing path: ${op.path}`);
  if (op.op === 'remove') delete obj[last];
  else obj[last] = structuredClone(op.value);
}

function test(parent: Json, key: string, value: unknown, path: string): void {
  const current = Array.isArray(parent) ? indexed(parent, key, path) : (parent as Record<string, unknown>)[key];
  if (current === undefined || current === null ? value !== null : !jsonEqual(current, value))
    throw new JsonPatchError(`testing value ${path} failed`);
}

function indexed(array: unknown[], key: string, path: string): unknown {
  const i = Number(key);
  if (!Number.isInteger(i) || i < 0 || i >= array.length) throw new JsonPatchError(`index out of range: ${path}`);
  return array[i];
}

function applyToArray(array: unknown[], key: string, op: JsonPatchOp): void {
  if (op.op === 'add') {
    const i = key === '-' ? array.length : Number(key);
    if (!Number.isInteger(i) || i < 0 || i > array.length) throw new JsonPatchError(`index out of range: ${op.path}`);
    array.splice(i, 0, structuredClone(op.value));
    return;
  }
  const i = Number(key);
  indexed(array, key, op.path);
  if (op.op === 'remove') array.splice(i, 1);
  else if (op.op === 'replace') array[i] = structuredClone(op.value);
}
