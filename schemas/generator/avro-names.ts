import { isValidAvroName } from '../avro/avro-schema.ts';

/**
 * Avro naming (specification, "Names"): every name is [A-Za-z_][A-Za-z0-9_]* (isValidAvroName) and a full name is
 * dot-separated. Kubernetes JSON names are freer (`$ref`, `x-kubernetes-int-or-string`, `kube-aggregator`), so names
 * are sanitised here and the original kept beside them (see JSON_NAME) so nothing is lost.
 */

/** avroName turns any string into a valid Avro name, replacing each other character with `_`. */
export function avroName(raw: string): string {
  const replaced = raw.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(replaced) ? replaced : `_${replaced}`;
}

/**
 * avroFieldNames gives the Avro name of each JSON property of one object, in order: valid names are kept, the
 * others sanitised and suffixed with `_` until they collide with no other field of the same record.
 */
export function avroFieldNames(jsonNames: readonly string[]): readonly string[] {
  const taken = new Set(jsonNames.filter(isValidAvroName));
  return jsonNames.map((jsonName) => {
    if (isValidAvroName(jsonName)) return jsonName;
    let candidate = avroName(jsonName);
    while (taken.has(candidate)) candidate += '_';
    taken.add(candidate);
    return candidate;
  });
}

/** AvroQualifiedName is a name split the way Avro records carry it. */
export type AvroQualifiedName = { readonly namespace: string; readonly name: string };

/**
 * avroQualifiedName maps an OpenAPI definition name (`io.k8s.api.core.v1.Pod`) to Avro's namespace
 * (`io.k8s.api.core.v1`) and name (`Pod`). A name without a namespace is refused: Avro resolves a dotless
 * reference inside a namespaced record relative to that namespace, so such a type could not be referenced.
 */
export function avroQualifiedName(definition: string): AvroQualifiedName {
  const segments = definition.split('.').map(avroName);
  const name = segments.pop();
  if (name === undefined || segments.length === 0) {
    throw new Error(`OpenAPI definition ${definition} has no namespace; Avro needs one to reference it`);
  }
  return { namespace: segments.join('.'), name };
}
