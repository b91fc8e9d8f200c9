import { type AvroRecord, type AvroType, isJsonString, isUnion, jsonNameOf } from '@kcm-bus/schemas/generator/avro-schema.ts';
import { childPath, expectArray, expectObject, mapEntries, ownValue, unionBranch, ValueShapeError } from './avro-value.ts';
import { deref, indexNamedTypes, type NamedTypes } from '@kcm-bus/schemas/generator/named-types.ts';

/**
 * fromAvroValue is the inverse of toAvroValue: it turns a value avsc decoded for `schema` (`wrapUnions: 'never'`)
 * back into Kubernetes JSON. Null fields are omitted (Kubernetes treats absent and null alike, so an explicit
 * `null` in the original comes back absent), JSON strings are parsed, renamed fields take their JSON name again.
 * Records come back as plain objects, whatever class avsc decoded them into.
 */
export function fromAvroValue(schema: AvroType, value: unknown): unknown {
  return fromAvro(schema, value, '', indexNamedTypes(schema));
}

function fromAvro(type: AvroType, value: unknown, path: string, names: NamedTypes): unknown {
  const resolved = deref(type, names);
  if (isUnion(resolved)) {
    return value === null || value === undefined ? undefined : fromAvro(unionBranch(resolved, value, names, path), value, path, names);
  }
  if (isJsonString(resolved)) return parseJson(value, path);
  if (typeof resolved === 'string') return value;
  switch (resolved.type) {
    case 'record':
      return fromRecord(resolved, value, path, names);
    case 'array':
      return expectArray(value, path).map((item) => fromAvro(resolved.items, item, `${path}[]`, names));
    case 'map':
      return mapEntries(expectObject(value, path), (item) => fromAvro(resolved.values, item, `${path}{}`, names));
    case 'enum':
      return value;
  }
}

function fromRecord(record: AvroRecord, value: unknown, path: string, names: NamedTypes): unknown {
  const object = expectObject(value, path);
  return Object.fromEntries(
    record.fields.flatMap((field) => {
      const jsonName = jsonNameOf(field);
      const item = fromAvro(field.type, ownValue(object, field.name), childPath(path, jsonName), names);
      return item === undefined ? [] : [[jsonName, item]];
    }),
  );
}

function parseJson(value: unknown, path: string): unknown {
  if (typeof value !== 'string') throw new ValueShapeError(path, 'a JSON string', value);
  try {
    return JSON.parse(value);
  } catch (err) {
    throw new ValueShapeError(path, `JSON text (${(err as Error).message})`, value);
  }
}
