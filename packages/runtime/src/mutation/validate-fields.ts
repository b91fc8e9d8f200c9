/** Fields is a decoded record whose fields a validator reads one by one. */
export type Fields = Readonly<Record<string, unknown>>;

/** InvalidPart is thrown by the readers below and caught by the validator, which turns it into `{ error }`. */
export class InvalidPart extends Error {}

/** invalid stops validation with `<path>: <what is wrong>`. */
export function invalid(path: string, what: string): never {
  throw new InvalidPart(`${path}: ${what}`);
}

/** record reads a nested record, or stops naming the path when it is missing or not an object. */
export function record(value: unknown, path: string): Fields {
  if (value === undefined || value === null) invalid(path, 'missing');
  if (typeof value !== 'object' || Array.isArray(value)) invalid(path, `not a record (${typeof value})`);
  return value as Fields;
}

/**
 * MAX_FIELD_LENGTH bounds every name-like string of a record (ids, names, reasons): Kubernetes names stop at 253
 * characters, and a bound keeps what the writer holds per record (keys, caches, results) small whatever a producer
 * sends. JSON text (a body, a patch) and an event message are bounded by the record's size instead.
 */
export const MAX_FIELD_LENGTH = 1024;

/** requiredString reads a string that must be present; nonEmpty also refuses ''; longer than maxLength is refused. */
export function requiredString(
  fields: Fields,
  key: string,
  path: string,
  nonEmpty = true,
  maxLength = MAX_FIELD_LENGTH,
): string {
  const value = fields[key];
  if (value === undefined || value === null) invalid(`${path}${key}`, 'missing');
  if (typeof value !== 'string') invalid(`${path}${key}`, `not a string (${typeof value})`);
  if (nonEmpty && value === '') invalid(`${path}${key}`, 'empty');
  return withinLength(value, `${path}${key}`, maxLength);
}

/** nullableString reads an optional string: absent and null are both null; longer than maxLength is refused. */
export function nullableString(fields: Fields, key: string, path: string, maxLength = MAX_FIELD_LENGTH): string | null {
  const value = fields[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') invalid(`${path}${key}`, `not a string or null (${typeof value})`);
  return withinLength(value, `${path}${key}`, maxLength);
}

function withinLength(value: string, path: string, maxLength: number): string {
  if (value.length > maxLength) invalid(path, `too long (${value.length} characters, at most ${maxLength})`);
  return value;
}

/** requiredInt reads a non-negative safe integer (an Avro int or long). */
export function requiredInt(fields: Fields, key: string, path: string): number {
  const value = fields[key];
  if (value === undefined || value === null) invalid(`${path}${key}`, 'missing');
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    invalid(`${path}${key}`, `not a non-negative integer (${String(value)})`);
  }
  return value;
}

/** oneOf reads a string that must be one of the allowed values, naming them when it is not. */
export function oneOf<T extends string>(fields: Fields, key: string, path: string, allowed: readonly T[]): T {
  const value = requiredString(fields, key, path);
  if (!(allowed as readonly string[]).includes(value))
    invalid(`${path}${key}`, `${JSON.stringify(value)} is not one of ${allowed.join(', ')}`);
  return value as T;
}

/** jsonText parses a field holding JSON text, naming the field when the text is not JSON. */
export function jsonText(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    return invalid(path, `not JSON (${(err as Error).message})`);
  }
}
