import {
  type AvroField,
  type AvroRecord,
  type AvroType,
  fullName,
  isJsonString,
  isPrimitive,
  isUnion,
  jsonNameOf,
} from '@kcm-bus/schemas/avro/avro-schema.ts';
import { deref, indexNamedTypes, type NamedTypes } from '@kcm-bus/schemas/avro/named-types.ts';
import { RESIDUE_FIELD } from '@kcm-bus/schemas/avro/watch-event-schema.ts';

/** Kept is, for each record by full name, the Avro names of the fields a projection keeps, or WHOLE: all, all the way down. */
type Kept = Map<string, Set<string> | typeof WHOLE>;
const WHOLE = 'whole';

/**
 * projectSchema cuts a record schema down to the fields named by `paths` (Kubernetes JSON names, dotted from the
 * root: `object.metadata.labels`; lists, maps and nullable unions are walked through, so `object.spec.containers.name`
 * keeps each container's name; a path's last field is kept whole). Used as a reader schema, it makes Avro's schema
 * resolution skip every other field of a record without building it: a controller that keeps a few fields of a pod
 * decodes only those. Records keep their full names (resolution matches records by name), so a record met at two
 * places keeps the fields either place needs. A path the schema does not have is a mistake in a declaration and throws.
 */
export function projectSchema(root: AvroRecord, paths: readonly string[]): AvroRecord {
  const names = indexNamedTypes(root);
  const kept: Kept = new Map([[fullName(root), new Set<string>()]]);
  for (const path of paths) select(root, path.split('.'), path, names, kept);
  refusePrototypeNames(names, kept);
  return emit(root, names, kept, new Set()) as AvroRecord;
}

/**
 * refusePrototypeNames throws when a record the view reads has a field named like a member of Object.prototype
 * (`constructor`): avsc 5.7's record resolver keeps its field resolvers in a plain object and fails on such a name,
 * whatever the reader keeps. No watched kind has one; an input that met one must be read whole.
 */
function refusePrototypeNames(names: NamedTypes, kept: Kept): void {
  for (const name of kept.keys()) {
    const field = (names.get(name) as AvroRecord).fields.find((f) => f.name in Object.prototype);
    if (field)
      throw new Error(`${name}.${field.name}: avsc cannot resolve a record with this field name; read the input whole`);
  }
}

/** WATCH_ENVELOPE is what every reader of a watch record needs besides the object's fields. */
const WATCH_ENVELOPE = ['type', 'key', 'resourceVersion', 'observedAt', RESIDUE_FIELD];

/** watchEventView is a watch topic's schema cut down to its envelope and the named fields of its object. */
export function watchEventView(schema: AvroRecord, objectFields: readonly string[]): AvroRecord {
  return projectSchema(schema, [...WATCH_ENVELOPE, ...objectFields.map((field) => `object.${field}`)]);
}

function select(type: AvroType, segments: readonly string[], path: string, names: NamedTypes, kept: Kept): void {
  const resolved = deref(type, names);
  if (segments.length === 0) return keepWhole(resolved, names, kept);
  if (isUnion(resolved))
    return resolved.filter((b) => b !== 'null').forEach((branch) => select(branch, segments, path, names, kept));
  if (typeof resolved === 'string' || isJsonString(resolved) || resolved.type === 'enum')
    throw new Error(`${path}: ${segments.join('.')} is below a field without fields`);
  if (resolved.type === 'array') return select(resolved.items, segments, path, names, kept);
  if (resolved.type === 'map') return select(resolved.values, segments, path, names, kept);
  const [head, ...rest] = segments;
  const field = resolved.fields.find((f) => jsonNameOf(f) === head);
  if (field === undefined) throw new Error(`${path}: ${fullName(resolved)} has no field ${String(head)}`);
  const entry = kept.get(fullName(resolved)) ?? new Set<string>();
  if (entry === WHOLE) return;
  kept.set(fullName(resolved), entry.add(field.name));
  select(field.type, rest, path, names, kept);
}

function keepWhole(type: AvroType, names: NamedTypes, kept: Kept): void {
  const resolved = deref(type, names);
  if (isUnion(resolved)) return resolved.forEach((branch) => keepWhole(branch, names, kept));
  if (typeof resolved === 'string' || isJsonString(resolved) || resolved.type === 'enum') return;
  if (resolved.type === 'array') return keepWhole(resolved.items, names, kept);
  if (resolved.type === 'map') return keepWhole(resolved.values, names, kept);
  if (kept.get(fullName(resolved)) === WHOLE) return;
  kept.set(fullName(resolved), WHOLE);
  resolved.fields.forEach((field) => keepWhole(field.type, names, kept));
}

/** emit writes the cut-down schema: each named type defined where it first appears in it, referenced by name after. */
function emit(type: AvroType, names: NamedTypes, kept: Kept, defined: Set<string>): AvroType {
  if (typeof type === 'string')
    return isPrimitive(type) || defined.has(type) ? type : emit(deref(type, names), names, kept, defined);
  if (isUnion(type)) return type.map((branch) => emit(branch, names, kept, defined));
  if (isJsonString(type)) return type;
  if (type.type === 'array') return { ...type, items: emit(type.items, names, kept, defined) };
  if (type.type === 'map') return { ...type, values: emit(type.values, names, kept, defined) };
  const name = fullName(type);
  if (defined.has(name)) return name;
  defined.add(name);
  if (type.type === 'enum') return type;
  const entry = kept.get(name);
  const fields = type.fields.filter((f) => entry === WHOLE || entry?.has(f.name) === true);
  return {
    ...type,
    fields: fields.map((f): AvroField => ({ ...f, type: emit(f.type, names, kept, defined) })),
  } satisfies AvroRecord;
}
