import {
  type AvroRecord,
  type AvroType,
  isJsonString,
  isUnion,
  jsonNameOf,
} from '@kcm-bus/schemas/avro/avro-schema.ts';
import {
  childPath,
  compiledFor,
  expectArray,
  expectObject,
  lazily,
  mapEntries,
  ownValue,
  setField,
  unionPicker,
  ValueShapeError,
} from './avro-value.ts';
import { deref, type NamedTypes } from '@kcm-bus/schemas/avro/named-types.ts';

/** FromAvro converts the decoded value at one place of a schema back to Kubernetes JSON (undefined: leave it out). */
type FromAvro = (value: unknown) => unknown;

const COMPILED = new WeakMap<object, FromAvro>();

/**
 * fromAvroValue is the inverse of toAvroValue: it turns a value avsc decoded for `schema` (`wrapUnions: 'never'`)
 * back into Kubernetes JSON. Null fields are omitted (Kubernetes treats absent and null alike, so an explicit
 * `null` in the original comes back absent), JSON strings are parsed, renamed fields take their JSON name again.
 * Records come back as plain objects, whatever class avsc decoded them into. Like toAvroValue, it runs a converter
 * compiled once per schema document.
 */
export function fromAvroValue(schema: AvroType, value: unknown): unknown {
  return compiledFor(COMPILED, schema, compileFrom)(value);
}

function compileFrom(type: AvroType, path: string, names: NamedTypes): FromAvro {
  const resolved = deref(type, names);
  if (isUnion(resolved)) return unionFrom(resolved, path, names);
  if (isJsonString(resolved)) return (value) => parseJson(value, path);
  if (typeof resolved === 'string') return (value) => value;
  switch (resolved.type) {
    case 'record':
      return recordFrom(resolved, path, names);
    case 'array': {
      const item = lazily(() => compileFrom(resolved.items, `${path}[]`, names));
      return (value) => expectArray(value, path).map((v) => item()(v));
    }
    case 'map': {
      const item = lazily(() => compileFrom(resolved.values, `${path}{}`, names));
      return (value) => mapEntries(expectObject(value, path), (v) => item()(v));
    }
    case 'enum':
      return (value) => value;
  }
}

function unionFrom(branches: readonly AvroType[], path: string, names: NamedTypes): FromAvro {
  const { types, pick } = unionPicker(branches, names, path);
  const converters = types.map((type) => lazily(() => compileFrom(type, path, names)));
  return (value) =>
    value === null || value === undefined ? undefined : (converters[pick(value)] as () => FromAvro)()(value);
}

function recordFrom(record: AvroRecord, path: string, names: NamedTypes): FromAvro {
  const fields = lazily(() =>
    record.fields.map((field) => {
      const jsonName = jsonNameOf(field);
      return { name: field.name, jsonName, convert: compileFrom(field.type, childPath(path, jsonName), names) };
    }),
  );
  return (value) => {
    const object = expectObject(value, path);
    const out: Record<string, unknown> = {};
    for (const field of fields()) {
      const item = field.convert(ownValue(object, field.name));
      if (item !== undefined) setField(out, field.jsonName, item);
    }
    return out;
  };
}

function parseJson(value: unknown, path: string): unknown {
  if (typeof value !== 'string') throw new ValueShapeError(path, 'a JSON string', value);
  try {
    return JSON.parse(value);
  } catch (err) {
    throw new ValueShapeError(path, `JSON text (${(err as Error).message})`, value);
  }
}
