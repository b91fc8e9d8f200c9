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

/** requiredString reads a string that must be present; nonEmpty also refuses ''. */
export function requiredString(fields: Fields, key: string, path: string, nonEmpty = true): string {
  const value = fields[key];
  if (value === undefined || value === null) invalid(`${path}${key}`, 'missing');
  if (typeof value !== 'string') invalid(`${path}${key}`, `not a string (${typeof value})`);
  if (nonEmpty && value === '') invalid(`${path}${key}`, 'empty');
  return value;
}

/** nullableString reads an optional string: absent and null are both null. */
export function nullableString(fields: Fields, key: string, path: string): string | null {
  const value = fields[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') invalid(`${path}${key}`, `not a string or null (${typeof value})`);
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
  if (!(allowed as readonly string[]).includes(value)) invalid(`${path}${key}`, `${JSON.stringify(value)} is not one of ${allowed.join(', ')}`);
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
