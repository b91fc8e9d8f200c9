/**
 * The subset of an OpenAPI v3 document that the kube-apiserver serves at /openapi/v3/<group-version> and that the
 * Avro generator reads (kube-openapi's spec3 types; CRD structural-schema extensions included).
 */

/** OpenApiSchema is one schema object: a definition, a property, an array's items or a map's values. */
export type OpenApiSchema = {
  readonly type?: string;
  readonly format?: string;
  readonly description?: string;
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  readonly $ref?: string;
  readonly allOf?: readonly OpenApiSchema[];
  readonly oneOf?: readonly OpenApiSchema[];
  readonly anyOf?: readonly OpenApiSchema[];
  readonly properties?: Readonly<Record<string, OpenApiSchema>>;
  readonly additionalProperties?: OpenApiSchema | boolean;
  readonly items?: OpenApiSchema;
  readonly 'x-kubernetes-int-or-string'?: boolean;
};

/** OpenApiDocument is an OpenAPI v3 document; only `components.schemas` matters to the generator. */
export type OpenApiDocument = {
  readonly components?: { readonly schemas?: Readonly<Record<string, OpenApiSchema>> };
};

const REF_PREFIX = '#/components/schemas/';

/** definitionOf looks a definition up by name (`io.k8s.api.core.v1.Pod`) and fails loudly when it is missing. */
export function definitionOf(doc: OpenApiDocument, name: string): OpenApiSchema {
  const def = doc.components?.schemas?.[name];
  if (!def) throw new Error(`OpenAPI document has no definition ${name}`);
  return def;
}

/**
 * refOf is the definition name a schema points at: a `$ref`, or the `allOf: [{$ref}]` wrapper kube-openapi emits
 * in v3 so that a property can carry a description and default next to its reference.
 */
export function refOf(schema: OpenApiSchema): string | undefined {
  const ref = schema.$ref ?? (schema.allOf?.length === 1 ? schema.allOf[0]?.$ref : undefined);
  if (ref === undefined) return undefined;
  if (!ref.startsWith(REF_PREFIX)) throw new Error(`unsupported OpenAPI reference ${ref} (only ${REF_PREFIX}…)`);
  return ref.slice(REF_PREFIX.length);
}

/** isIntOrString recognises intstr.IntOrString (`format: int-or-string`) and CRDs' `x-kubernetes-int-or-string`. */
export function isIntOrString(schema: OpenApiSchema): boolean {
  return schema.format === 'int-or-string' || schema['x-kubernetes-int-or-string'] === true;
}
