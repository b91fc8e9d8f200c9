import {
  type AvroRecord,
  type AvroType,
  isJsonString,
  isUnion,
  jsonNameOf,
} from '@kcm-bus/schemas/avro/avro-schema.ts';
import {
  acceptsPrimitive,
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

/** ToAvroResult is the Avro value of an object and the paths of its fields the schema has no place for. */
export type ToAvroResult = { readonly value: unknown; readonly unknownPaths: readonly string[] };

/** ToAvro converts the value at one place of a schema, adding the paths of fields the schema lacks to `unknown`. */
type ToAvro = (value: unknown, unknown: Set<string>) => unknown;

const COMPILED = new WeakMap<object, ToAvro>();

/**
 * toAvroValue converts a Kubernetes JSON object to the value avsc encodes for `schema` with `wrapUnions: 'never'`:
 * absent and null fields become null, free-form fields become JSON text, renamed fields (`kcmbus.jsonName`) take
 * their Avro name. Fields the schema lacks cannot be encoded, so they are never dropped silently: each is reported
 * in `unknownPaths` (`spec.foo.bar`; array items as `[]`, map values as `{}`; each path once) for the caller to
 * count and log. A value of the wrong shape throws ValueShapeError naming its path.
 * The schema is compiled once into a converter per place (paths fixed, references followed), kept with the schema:
 * the watcher converts every pod event, and walking the schema for each was a quarter of its CPU.
 */
export function toAvroValue(schema: AvroType, object: unknown): ToAvroResult {
  const unknown = new Set<string>();
  const value = compiledFor(COMPILED, schema, compileTo)(object, unknown);
  return { value, unknownPaths: [...unknown] };
}

function compileTo(type: AvroType, path: string, names: NamedTypes): ToAvro {
  const resolved = deref(type, names);
  if (isUnion(resolved)) return unionTo(resolved, path, names);
  if (isJsonString(resolved)) return (value) => JSON.stringify(value);
  if (typeof resolved === 'string') return primitiveTo(resolved, path);
  switch (resolved.type) {
    case 'record':
      return recordTo(resolved, path, names);
    case 'array': {
      const item = lazily(() => compileTo(resolved.items, `${path}[]`, names));
      return (value, unknown) => expectArray(value, path).map((v) => item()(v, unknown));
    }
    case 'map': {
      const item = lazily(() => compileTo(resolved.values, `${path}{}`, names));
      return (value, unknown) => mapEntries(expectObject(value, path), (v) => item()(v, unknown));
    }
    case 'enum':
      return (value) => {
        if (typeof value !== 'string' || !resolved.symbols.includes(value))
          throw new ValueShapeError(path, resolved.symbols.join('|'), value);
        return value;
      };
  }
}

function primitiveTo(type: string, path: string): ToAvro {
  return (value) => {
    if (!acceptsPrimitive(type, value)) throw new ValueShapeError(path, type, value);
    return value;
  };
}

/** unionTo: null for an absent value, else the value converted as the branch it belongs to. */
function unionTo(branches: readonly AvroType[], path: string, names: NamedTypes): ToAvro {
  const { types, pick } = unionPicker(branches, names, path);
  const converters = types.map((type) => lazily(() => compileTo(type, path, names)));
  return (value, unknown) =>
    value === null || value === undefined ? null : (converters[pick(value)] as () => ToAvro)()(value, unknown);
}

function recordTo(record: AvroRecord, path: string, names: NamedTypes): ToAvro {
  const known = new Set(record.fields.map(jsonNameOf));
  const fields = lazily(() =>
    record.fields.map((field) => {
      const jsonName = jsonNameOf(field);
      return { name: field.name, jsonName, convert: compileTo(field.type, childPath(path, jsonName), names) };
    }),
  );
  return (value, unknown) => {
    const object = expectObject(value, path);
    for (const key of Object.keys(object)) if (!known.has(key)) unknown.add(childPath(path, key));
    const out: Record<string, unknown> = {};
    for (const field of fields()) setField(out, field.name, field.convert(ownValue(object, field.jsonName), unknown));
    return out;
  };
}
