import {
  type AvroRecord,
  type AvroType,
  isJsonString,
  isUnion,
  jsonNameOf,
} from '@kcm-bus/schemas/avro/avro-schema.ts';
import { RESIDUE_FIELD } from '@kcm-bus/schemas/avro/watch-event-schema.ts';
import { deref, indexNamedTypes, type NamedTypes } from '@kcm-bus/schemas/avro/named-types.ts';
import { type JsonObject, ownValue, unionBranch } from './avro-value.ts';

/**
 * A residue is what a schema has no place for in a JSON value, kept so that nothing is lost between an apiserver
 * newer than our schemas and the writer: the value's shape cut down to the fields the schema lacks. Objects keep only
 * the keys that lead to such a field (the field itself whole); arrays stay index-aligned, `null` standing for an item
 * with nothing missing. A record whose schema has the field `unknownFields` (the watch events') carries its residue
 * there as JSON, and readers merge it back (mergeResidue), so a pod template's unknown fields survive from the RC to
 * the pod it creates.
 */
export type Residue = JsonObject | readonly unknown[];

/** residueOf returns what of `value` the schema has no place for, or undefined when it has a place for everything. */
export function residueOf(schema: AvroType, value: unknown): Residue | undefined {
  return residue(schema, value, indexNamedTypes(schema));
}

function residue(type: AvroType, value: unknown, names: NamedTypes): Residue | undefined {
  const resolved = deref(type, names);
  if (value === null || value === undefined || isJsonString(resolved) || typeof resolved === 'string') return undefined;
  if (isUnion(resolved)) return residue(unionBranch(resolved, value, names, ''), value, names);
  if (resolved.type === 'record') return recordResidue(resolved, value as JsonObject, names);
  if (resolved.type === 'array') return arrayResidue(resolved.items, value as readonly unknown[], names);
  if (resolved.type === 'map')
    return objectOrUndefined(
      Object.entries(value as JsonObject).map(([key, item]) => [key, residue(resolved.values, item, names)]),
    );
  return undefined;
}

function recordResidue(record: AvroRecord, object: JsonObject, names: NamedTypes): Residue | undefined {
  const fields = new Map(record.fields.map((field) => [jsonNameOf(field), field.type]));
  return objectOrUndefined(
    Object.entries(object).map(([key, item]) => {
      const type = fields.get(key);
      return [key, type === undefined ? item : residue(type, item, names)];
    }),
  );
}

function arrayResidue(items: AvroType, array: readonly unknown[], names: NamedTypes): Residue | undefined {
  const residues = array.map((item) => residue(items, item, names) ?? null);
  return residues.some((item) => item !== null) ? residues : undefined;
}

function objectOrUndefined(entries: readonly (readonly [string, unknown])[]): JsonObject | undefined {
  const kept = entries.filter(([, item]) => item !== undefined);
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
}

/**
 * mergeResidue puts a residue back into the value it was cut from (after a round trip through the schema), in place:
 * a key the value lacks takes the residue's value whole, a key both have is merged into, arrays item by item. Keys are
 * defined as own data properties, so a record cannot reach Object.prototype through `__proto__`.
 */
export function mergeResidue(target: unknown, residue: unknown): unknown {
  if (Array.isArray(residue) && Array.isArray(target)) {
    residue.forEach((item, i) => {
      if (item !== null && i < target.length) target[i] = mergeResidue(target[i], item);
    });
    return target;
  }
  if (!isPlainObject(residue) || !isPlainObject(target)) return target === undefined ? residue : target;
  for (const [key, item] of Object.entries(residue)) {
    Object.defineProperty(target, key, {
      value: mergeResidue(ownValue(target, key), item),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return target;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** hasResidueField tells whether a record schema carries residues (its root has the field `unknownFields`). */
export function hasResidueField(schema: AvroType): boolean {
  if (typeof schema !== 'object' || isUnion(schema) || schema.type !== 'record') return false;
  return (schema as AvroRecord).fields.some((field) => field.name === RESIDUE_FIELD);
}

/** restoreResidue takes a decoded record's `unknownFields` off and merges it back into the record. */
export function restoreResidue(value: unknown): unknown {
  if (!isPlainObject(value) || !Object.hasOwn(value, RESIDUE_FIELD)) return value;
  const { [RESIDUE_FIELD]: carried, ...rest } = value;
  return mergeResidue(rest, carried);
}
