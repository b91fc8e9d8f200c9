import { type AvroNamed, type AvroType, fullName, isPrimitive, isUnion, JSON_NAME } from './avro-schema.ts';

/** NamedTypes maps each full name defined in a schema document to its definition. */
export type NamedTypes = ReadonlyMap<string, AvroNamed>;

/** INDEXES: each schema document's index, built once (the value converters ask for it on every record). */
const INDEXES = new WeakMap<object, NamedTypes>();

/**
 * indexNamedTypes collects every record and enum defined in a schema document, so that walkers can follow the
 * by-name references Avro uses after a type's first definition (and recursive types such as JSONSchemaProps).
 * A schema document is not changed once built, so its index is kept with it.
 */
export function indexNamedTypes(root: AvroType): NamedTypes {
  if (typeof root === 'string') return new Map();
  let index = INDEXES.get(root);
  if (index === undefined) {
    const built = new Map<string, AvroNamed>();
    visit(root, built);
    INDEXES.set(root, (index = built));
  }
  return index;
}

function visit(type: AvroType, index: Map<string, AvroNamed>): void {
  if (typeof type === 'string') return;
  if (isUnion(type)) return type.forEach((branch) => visit(branch, index));
  if (type.type === 'record' || type.type === 'enum') index.set(fullName(type), type);
  if (type.type === 'record') type.fields.forEach((field) => visit(field.type, index));
  if (type.type === 'array') visit(type.items, index);
  if (type.type === 'map') visit(type.values, index);
}

/** deref replaces a by-name reference with its definition; primitives and inline nodes come back unchanged. */
export function deref(type: AvroType, names: NamedTypes): Exclude<AvroType, string> | string {
  if (typeof type !== 'string' || isPrimitive(type)) return type;
  const named = names.get(type);
  if (!named) throw new Error(`Avro schema references ${type}, which it never defines`);
  return named;
}

/** FieldRename is one field whose Avro name differs from its Kubernetes JSON name. */
export type FieldRename = { readonly record: string; readonly avroName: string; readonly jsonName: string };

/** fieldRenames lists every renamed field of a schema document: the mapping the value converters apply. */
export function fieldRenames(root: AvroType): readonly FieldRename[] {
  return [...indexNamedTypes(root).values()].flatMap((named) =>
    named.type !== 'record'
      ? []
      : named.fields.flatMap((field) => {
          const jsonName = field[JSON_NAME];
          return jsonName === undefined ? [] : [{ record: fullName(named), avroName: field.name, jsonName }];
        }),
  );
}
