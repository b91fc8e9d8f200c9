import { avroFieldNames, avroQualifiedName, type AvroQualifiedName } from './avro-names.ts';
import {
  type AvroField,
  type AvroJsonString,
  type AvroRecord,
  type AvroType,
  fullName,
  isUnion,
  JSON_ENCODING,
  JSON_NAME,
} from '../avro/avro-schema.ts';
import { definitionOf, isIntOrString, type OpenApiDocument, type OpenApiSchema, refOf } from './openapi.ts';

/** OpenApiToAvroOptions tunes the output; `docs` copies OpenAPI descriptions into Avro `doc` (off by default). */
export type OpenApiToAvroOptions = { readonly docs?: boolean };

/** QUANTITY is resource.Quantity, `oneOf: [string, number]` in OpenAPI, always a string on the wire (canonical). */
export const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';

const JSON_STRING: AvroJsonString = { type: 'string', [JSON_ENCODING]: 'json' };

type Context = {
  readonly doc: OpenApiDocument;
  readonly docs: boolean;
  /** Avro full name → the OpenAPI definition (or inline property) it was made from; a name is defined once. */
  readonly defined: Map<string, string>;
  /** Non-record definitions being expanded, to refuse a definition that contains itself without a record. */
  readonly expanding: Set<string>;
};

/**
 * openApiToAvro derives the Avro schema of one OpenAPI definition (e.g. `io.k8s.api.core.v1.Pod`) from an OpenAPI v3
 * document as served by the kube-apiserver. Each object definition becomes a record named after it, defined at its
 * first use and referenced by full name afterwards (so recursion such as JSONSchemaProps terminates). Every field is
 * `["null", T]` with default null: Kubernetes omits fields freely, and null-first unions let any field be added later
 * without breaking BACKWARD or FORWARD compatibility. The mapping rules are on `typeOf`.
 */
export function openApiToAvro(doc: OpenApiDocument, root: string, options: OpenApiToAvroOptions = {}): AvroRecord {
  const context: Context = { doc, docs: options.docs ?? false, defined: new Map(), expanding: new Set() };
  const def = definitionOf(doc, root);
  if (!hasProperties(def)) throw new Error(`OpenAPI definition ${root} is not an object with properties`);
  return record(claim(avroQualifiedName(root), root, context), def, context);
}

/**
 * typeOf maps one OpenAPI schema to a (non-optional) Avro type:
 * references → their definition; int-or-string → `long | string` (a union keeps 80 and "80" apart, which a string
 * could not without quoting); arrays → array; objects with properties → a record; `additionalProperties` → map;
 * string (any format: date-time, byte, Kubernetes enums) → string; int32 → int; other integers → long;
 * number → double; boolean → boolean; anything else (free-form object, oneOf, no type) → a JSON string.
 */
function typeOf(schema: OpenApiSchema, context: Context, scope: AvroQualifiedName): AvroType {
  const ref = refOf(schema);
  if (ref !== undefined) return referenced(ref, context);
  if (isIntOrString(schema)) return ['long', 'string'];
  if (schema.type === 'array') {
    return { type: 'array', items: schema.items ? typeOf(schema.items, context, scope) : JSON_STRING };
  }
  if (hasProperties(schema)) return record(claim(scope, `inline ${fullName(scope)}`, context), schema, context);
  const values = schema.additionalProperties;
  if (values !== undefined && values !== false) {
    return { type: 'map', values: values === true ? JSON_STRING : typeOf(values, context, scope) };
  }
  return primitiveOf(schema) ?? JSON_STRING;
}

function primitiveOf(schema: OpenApiSchema): string | undefined {
  if (schema.oneOf || schema.anyOf) return undefined;
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'integer':
      return schema.format === 'int32' ? 'int' : 'long';
    case 'number':
      return 'double';
    default:
      return undefined;
  }
}

/** referenced is the type of a definition: a record (defined once, then its full name) or its inline mapping. */
function referenced(name: string, context: Context): AvroType {
  if (name === QUANTITY) return 'string';
  const def = definitionOf(context.doc, name);
  if (hasProperties(def)) {
    const qualified = avroQualifiedName(name);
    const full = fullName(qualified);
    if (context.defined.get(full) === name) return full;
    return record(claim(qualified, name, context), def, context);
  }
  if (context.expanding.has(name)) throw new Error(`OpenAPI definition ${name} contains itself outside a record`);
  context.expanding.add(name);
  const type = typeOf(def, context, avroQualifiedName(name));
  context.expanding.delete(name);
  return type;
}

/** claim reserves an Avro full name for one source, failing when two sources would share it. */
function claim(name: AvroQualifiedName, source: string, context: Context): AvroQualifiedName {
  const full = fullName(name);
  const owner = context.defined.get(full);
  if (owner !== undefined) throw new Error(`${source} and ${owner} both map to the Avro name ${full}`);
  context.defined.set(full, source);
  return name;
}

function record(name: AvroQualifiedName, schema: OpenApiSchema, context: Context): AvroRecord {
  const properties = Object.entries(schema.properties ?? {});
  const avroNames = avroFieldNames(properties.map(([jsonName]) => jsonName));
  const fields = properties.map(([jsonName, property], i): AvroField => {
    const fieldName = avroNames[i] ?? jsonName;
    const inlineScope = { namespace: name.namespace, name: `${name.name}_${fieldName}` };
    return {
      name: fieldName,
      type: optional(typeOf(property, context, inlineScope)),
      default: null,
      ...(fieldName === jsonName ? {} : { [JSON_NAME]: jsonName }),
      ...docOf(property, context),
    };
  });
  return { type: 'record', name: name.name, namespace: name.namespace, ...docOf(schema, context), fields };
}

/** optional makes a type nullable with null first, as Avro requires for a `default: null`; unions are flattened. */
function optional(type: AvroType): AvroType {
  return isUnion(type) ? ['null', ...type.filter((branch) => branch !== 'null')] : ['null', type];
}

function docOf(schema: OpenApiSchema, context: Context): { readonly doc?: string } {
  return context.docs && schema.description ? { doc: schema.description } : {};
}

function hasProperties(schema: OpenApiSchema): boolean {
  return Object.keys(schema.properties ?? {}).length > 0;
}
