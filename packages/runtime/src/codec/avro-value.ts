import { type AvroType, isJsonString, isUnion } from '@kcm-bus/schemas/avro/avro-schema.ts';
import { deref, type NamedTypes } from '@kcm-bus/schemas/avro/named-types.ts';

/**
 * What the codec knows of JSON values against a schema, shared by the compiled encoder and decoder and the residue.
 * Unions are avsc's unwrapped ones (`wrapUnions: 'never'`): a union value is the bare branch value, so a Kubernetes
 * JSON value needs no `{"string": …}` wrappers. This is unambiguous because the generator only emits `["null", T]`
 * and `["null", "long", "string"]`.
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

/** ownValue reads an own property only, so that names like `constructor` never reach Object.prototype. */
export function ownValue(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/**
 * pathOf is the path of a place in a value, for a message: the segments of the records around it (`object`,
 * `containers[]`, kept on a stack by the generated code) and its own (`name`), joined by dots.
 */
export function pathOf(stack: readonly string[], depth: number, segment: string): string {
  return [...stack.slice(0, depth), segment].filter((s) => s !== '').join('.');
}

/**
 * unionBranch is the branch a non-null value belongs to, as avsc's unwrapped union picks it: the first non-null branch
 * that accepts it (a lone one takes every value); it throws ValueShapeError when none does.
 */
export function unionBranch(branches: readonly AvroType[], value: unknown, names: NamedTypes, path: string): AvroType {
  const types = branches.filter((branch) => branch !== 'null');
  const branch = types.length === 1 ? types[0] : types.find((type) => accepts(deref(type, names), value));
  if (branch === undefined) throw new ValueShapeError(path, `one of ${JSON.stringify(branches)}`, value);
  return branch;
}

/** lazily builds a value on first use (a serde's codec of a writer schema, built when a record of it is read). */
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

/** accepts tells whether a non-null value belongs to a union branch (resolved): the rule of avsc's unwrapped unions. */
export function accepts(type: AvroType, value: unknown): boolean {
  if (isUnion(type) || isJsonString(type)) return true;
  if (typeof type !== 'string') {
    if (type.type === 'array') return Array.isArray(value);
    if (type.type === 'enum') return typeof value === 'string' && type.symbols.includes(value);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
  return acceptsPrimitive(type, value);
}

/** acceptsPrimitive tells whether a JSON value fits an Avro primitive (int and long must be integers). */
function acceptsPrimitive(type: string, value: unknown): boolean {
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
