/**
 * The subset of Avro schema JSON (Avro 1.11 specification, "Schema Declaration") that the generator emits and the
 * value converters walk (packages/runtime/src/codec), plus the two kcm-bus attributes that make the mapping to Kubernetes JSON lossless.
 * Avro readers ignore attributes they do not know, so both attributes travel with the schema to the registry
 * without changing what any Avro library decodes.
 */

/** JSON_ENCODING is the attribute that marks a string holding a JSON document (free-form Kubernetes fields). */
export const JSON_ENCODING = 'kcmbus.encoding';

/** JSON_NAME is the field attribute holding the Kubernetes JSON name when it is not a valid Avro name. */
export const JSON_NAME = 'kcmbus.jsonName';

/** AvroJsonString is a string holding JSON text: RawExtension, FieldsV1, JSON and other free-form objects. */
export type AvroJsonString = { readonly type: 'string'; readonly [JSON_ENCODING]: 'json' };

/** AvroField is a record field; `kcmbus.jsonName` is set only when the Avro name had to differ from the JSON one. */
export type AvroField = {
  readonly name: string;
  readonly type: AvroType;
  readonly default?: null;
  readonly doc?: string;
  readonly [JSON_NAME]?: string;
};

/** AvroRecord is a named record; the generator always writes its namespace so references resolve by full name. */
export type AvroRecord = {
  readonly type: 'record';
  readonly name: string;
  readonly namespace?: string;
  readonly doc?: string;
  readonly fields: readonly AvroField[];
};

/** AvroEnum is a named enum (used by the watch-event envelope, never for Kubernetes string enums). */
export type AvroEnum = {
  readonly type: 'enum';
  readonly name: string;
  readonly namespace?: string;
  readonly symbols: readonly string[];
};

/** AvroArray is an Avro array; Kubernetes lists map here whatever their list-type. */
export type AvroArray = { readonly type: 'array'; readonly items: AvroType };

/** AvroMap is an Avro map (string keys); OpenAPI `additionalProperties` map here. */
export type AvroMap = { readonly type: 'map'; readonly values: AvroType };

/** AvroNamed is a type that has a full name and may be referenced by it after its definition. */
export type AvroNamed = AvroRecord | AvroEnum;

/**
 * AvroType is any schema node. A bare string is a primitive (`null`, `boolean`, `int`, `long`, `double`, `string`)
 * or the full name of a named type defined earlier in the document; an array is a union.
 */
export type AvroType = string | AvroJsonString | AvroNamed | AvroArray | AvroMap | readonly AvroType[];

const PRIMITIVES: ReadonlySet<string> = new Set([
  'null',
  'boolean',
  'int',
  'long',
  'float',
  'double',
  'bytes',
  'string',
]);

/** isPrimitive tells a primitive type name from a reference to a named type. */
export function isPrimitive(type: string): boolean {
  return PRIMITIVES.has(type);
}

/** fullName is the Avro full name of a named type (or of a name about to be defined): `namespace.name`. */
export function fullName(named: { readonly namespace?: string | undefined; readonly name: string }): string {
  return named.namespace ? `${named.namespace}.${named.name}` : named.name;
}

/** isJsonString tells whether a schema node is a string carrying JSON text (the `kcmbus.encoding: json` mark). */
export function isJsonString(type: AvroType): type is AvroJsonString {
  return typeof type === 'object' && !Array.isArray(type) && (type as AvroJsonString)[JSON_ENCODING] === 'json';
}

/** jsonNameOf is the Kubernetes JSON name of a field: its `kcmbus.jsonName` when renamed, else its Avro name. */
export function jsonNameOf(field: AvroField): string {
  return field[JSON_NAME] ?? field.name;
}

const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** isValidAvroName tells whether a string may be used as an Avro name as it is (specification, "Names"). */
export function isValidAvroName(raw: string): boolean {
  return VALID_NAME.test(raw);
}

/** isUnion tells a union (a JSON array of branches) from every other schema node. */
export function isUnion(type: AvroType): type is readonly AvroType[] {
  return Array.isArray(type);
}
