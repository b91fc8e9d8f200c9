import { type AvroRecord, type AvroType, fullName, isJsonString, isUnion } from '@kcm-bus/schemas/avro/avro-schema.ts';
import { deref, type NamedTypes } from '@kcm-bus/schemas/avro/named-types.ts';

/** Resolved is a schema node with its by-name reference followed (what `deref` returns). */
export type Resolved = ReturnType<typeof deref>;

/** PROMOTIONS are the writer primitives each reader primitive may read (Avro specification, "Schema Resolution"). */
const PROMOTIONS: Readonly<Record<string, readonly string[]>> = {
  long: ['int'],
  float: ['int', 'long'],
  double: ['int', 'long', 'float'],
};

/**
 * matchingBranch is the reader's type that reads a value of the writer's type (itself not a union): the reader's
 * type, or the first branch of the reader's union that matches it (Avro's rule); undefined when none does.
 */
export function matchingBranch(writer: Resolved, reader: Resolved, names: NamedTypes): Resolved | undefined {
  const candidates = isUnion(reader) ? reader.map((branch) => deref(branch, names)) : [reader];
  return candidates.find((candidate) => matches(writer, candidate));
}

/**
 * branchFor is matchingBranch where the writer's type must be readable: none is a mistake in the pair of schemas
 * (avsc refuses such a pair before any decoder is compiled), and throws naming the place.
 */
export function branchFor(writer: Resolved, reader: Resolved, names: NamedTypes, path: string): Resolved {
  const match = matchingBranch(writer, reader, names);
  if (match === undefined)
    throw new Error(`${path || '(root)'}: ${describe(writer)} cannot be read as ${describe(reader)}`);
  return match;
}

function matches(writer: Resolved, reader: Resolved): boolean {
  const [w, r] = [primitiveOf(writer), primitiveOf(reader)];
  if (w !== undefined || r !== undefined)
    return w === r || (r !== undefined && PROMOTIONS[r]?.includes(w ?? '') === true);
  if (typeof writer === 'string' || typeof reader === 'string' || isUnion(writer) || isUnion(reader)) return false;
  if (writer.type !== reader.type) return false;
  return writer.type === 'record' || writer.type === 'enum'
    ? fullName(writer) === fullName(reader as typeof writer)
    : true;
}

/** primitiveOf is a node's primitive (a JSON string is a string), or undefined for a complex type. */
function primitiveOf(type: Resolved): string | undefined {
  if (typeof type === 'string') return type;
  return isJsonString(type) ? 'string' : undefined;
}

function describe(type: AvroType): string {
  if (typeof type === 'string') return type;
  if (isUnion(type)) return `a union of ${type.length}`;
  return 'name' in type ? fullName(type) : type.type;
}

/**
 * checkReaderFields refuses what the decoder does not do where Avro would fill in or rename a field, rather than leave
 * it out silently: a reader's field the writer lacks must default to null (it is then absent), and field aliases are
 * not followed.
 */
export function checkReaderFields(writer: AvroRecord, reader: AvroRecord): void {
  for (const field of reader.fields) {
    if ('aliases' in field) throw new Error(`${fullName(reader)}.${field.name}: field aliases are not supported`);
    if (!writer.fields.some((f) => f.name === field.name) && field.default !== null)
      throw new Error(`${fullName(reader)}.${field.name}: the writer lacks it and it has no default null`);
  }
}
