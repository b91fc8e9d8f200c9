import { type AvroType, isJsonString, isUnion } from '@kcm-bus/schemas/avro/avro-schema.ts';
import { deref, indexNamedTypes, type NamedTypes } from '@kcm-bus/schemas/avro/named-types.ts';

/**
 * Helpers shared by the two value converters (to-avro-value.ts, from-avro-value.ts). Both use avsc's unwrapped
 * unions (`wrapUnions: 'never'`): a union value is the bare branch value, so a Kubernetes JSON value and its Avro
 * value have the same shape and no `{"string": …}` wrappers need adding or removing. This is unambiguous because
 * the generator only emits `["null", T]` and `["null", "long", "string"]`.
 */

/** ValueShapeError says where a value does not have the shape its schema demands (path as in unknownPaths). */
export class ValueShapeError extends Error {
  readonly path: string;
  constructor(path: string, expected: string, value: unknown) {
    super(`${path || '(root)'}: expected ${expected}, got ${describe(value)}`);
    this.path = path;
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  return value === null ? 'null' : typeof value;
}

/** JsonObject is a decoded JSON object (or an avsc record, read the same way). */
export type JsonObject = Readonly<Record<string, unknown>>;

/** expectObject returns a value that must be a non-array object, or throws ValueShapeError. */
export function expectObject(value: unknown, path: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ValueShapeError(path, 'an object', value);
  return value as JsonObject;
}

/** expectArray returns a value that must be an array, or throws ValueShapeError. */
export function expectArray(value: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new ValueShapeError(path, 'an array', value);
  return value;
}

/** ownValue reads an own property only, so that names like `constructor` never reach Object.prototype. */
export function ownValue(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** mapEntries maps the values of an object, keeping its keys (even `__proto__`) as own data properties. */
export function mapEntries(
  object: Readonly<Record<string, unknown>>,
  f: (value: unknown) => unknown,
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, f(value)]));
}

/** childPath appends a field to a path (`spec` + `containers` → `spec.containers`). */
export function childPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** UnionPicker lists a union's non-null branches in order and picks the one a non-null value belongs to. */
export type UnionPicker = { readonly types: readonly AvroType[]; readonly pick: (value: unknown) => number };

/**
 * unionPicker mirrors avsc's unwrapped union: a non-null value belongs to the first non-null branch that accepts it
 * (a lone branch takes every value, its converter checks it); pick throws ValueShapeError when none does.
 */
export function unionPicker(branches: readonly AvroType[], names: NamedTypes, path: string): UnionPicker {
  const types = branches.filter((branch) => branch !== 'null');
  if (types.length === 1) return { types, pick: () => 0 };
  const resolved = types.map((type) => deref(type, names));
  return {
    types,
    pick: (value) => {
      const index = resolved.findIndex((type) => accepts(type, value));
      if (index < 0) throw new ValueShapeError(path, `one of ${JSON.stringify(branches)}`, value);
      return index;
    },
  };
}

/** unionBranch picks the branch a non-null value belongs to (unionPicker's rule), for walkers that compile nothing. */
export function unionBranch(branches: readonly AvroType[], value: unknown, names: NamedTypes, path: string): AvroType {
  const { types, pick } = unionPicker(branches, names, path);
  return types[pick(value)] as AvroType;
}

/**
 * compiledFor returns the converter `compile` builds for a schema document, building it once per document: the
 * converters follow references and fix each place's path when built, so converting a value walks no schema.
 */
export function compiledFor<F>(
  cache: WeakMap<object, F>,
  schema: AvroType,
  compile: (type: AvroType, path: string, names: NamedTypes) => F,
): F {
  if (typeof schema === 'string') return compile(schema, '', indexNamedTypes(schema));
  let compiled = cache.get(schema);
  if (compiled === undefined) cache.set(schema, (compiled = compile(schema, '', indexNamedTypes(schema))));
  return compiled;
}

/** lazily builds a value on first use: converters of recursive types (a record inside itself) are built as deep as values go. */
export function lazily<T>(make: () => T): () => T {
  let made: { readonly value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** setField sets an own data property, `__proto__` included, so a value cannot reach Object.prototype. */
export function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function accepts(type: AvroType, value: unknown): boolean {
  if (isUnion(type) || isJsonString(type)) return true;
  if (typeof type !== 'string') {
    if (type.type === 'array') return Array.isArray(value);
    if (type.type === 'enum') return typeof value === 'string' && type.symbols.includes(value);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
  return acceptsPrimitive(type, value);
}

/** acceptsPrimitive tells whether a JSON value fits an Avro primitive (int and long must be integers). */
export function acceptsPrimitive(type: string, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'int':
    case 'long':
      return Number.isInteger(value);
    case 'float':
    case 'double':
      return typeof value === 'number';
    default:
      return typeof value === 'string';
  }
}
