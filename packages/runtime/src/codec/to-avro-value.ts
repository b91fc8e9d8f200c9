import { type AvroRecord, type AvroType, isJsonString, isUnion, jsonNameOf } from '@kcm-bus/schemas/generator/avro-schema.ts';
import {
  acceptsPrimitive,
  childPath,
  expectArray,
  expectObject,
  mapEntries,
  ownValue,
  unionBranch,
  ValueShapeError,
} from './avro-value.ts';
import { deref, indexNamedTypes, type NamedTypes } from '@kcm-bus/schemas/generator/named-types.ts';

/** ToAvroResult is the Avro value of an object and the paths of its fields the schema has no place for. */
export type ToAvroResult = { readonly value: unknown; readonly unknownPaths: readonly string[] };

type Walk = { readonly names: NamedTypes; readonly unknown: Set<string> };

/**
 * toAvroValue converts a Kubernetes JSON object to the value avsc encodes for `schema` with `wrapUnions: 'never'`:
 * absent and null fields become null, free-form fields become JSON text, renamed fields (`kcmbus.jsonName`) take
 * their Avro name. Fields the schema lacks cannot be encoded, so they are never dropped silently: each is reported
 * in `unknownPaths` (`spec.foo.bar`; array items as `[]`, map values as `{}`; each path once) for the caller to
 * count and log. A value of the wrong shape throws ValueShapeError naming its path.
 */
export function toAvroValue(schema: AvroType, object: unknown): ToAvroResult {
  const walk: Walk = { names: indexNamedTypes(schema), unknown: new Set() };
  const value = toAvro(schema, object, '', walk);
  return { value, unknownPaths: [...walk.unknown] };
}

function toAvro(type: AvroType, value: unknown, path: string, walk: Walk): unknown {
  const resolved = deref(type, walk.names);
  if (isUnion(resolved)) {
    return value === null || value === undefined ? null : toAvro(unionBranch(resolved, value, walk.names, path), value, path, walk);
  }
  if (isJsonString(resolved)) return JSON.stringify(value);
  if (typeof resolved === 'string') {
    if (!acceptsPrimitive(resolved, value)) throw new ValueShapeError(path, resolved, value);
    return value;
  }
  switch (resolved.type) {
    case 'record':
      return toRecord(resolved, value, path, walk);
    case 'array':
      return expectArray(value, path).map((item) => toAvro(resolved.items, item, `${path}[]`, walk));
    case 'map':
      return mapEntries(expectObject(value, path), (item) => toAvro(resolved.values, item, `${path}{}`, walk));
    case 'enum':
      if (typeof value !== 'string' || !resolved.symbols.includes(value)) throw new ValueShapeError(path, resolved.symbols.join('|'), value);
      return value;
  }
}

function toRecord(record: AvroRecord, value: unknown, path: string, walk: Walk): unknown {
  const object = expectObject(value, path);
  const known = new Set(record.fields.map(jsonNameOf));
  for (const key of Object.keys(object)) if (!known.has(key)) walk.unknown.add(childPath(path, key));
  return Object.fromEntries(
    record.fields.map((field) => {
      const jsonName = jsonNameOf(field);
      return [field.name, toAvro(field.type, ownValue(object, jsonName), childPath(path, jsonName), walk)];
    }),
  );
}
