/**
 * Codec is the port through which services turn message values into bytes and back, so that pure code and in-memory
 * doubles never depend on the Avro library. Values are JSON as Kubernetes and our records have them (free-form fields
 * as objects, fields by their JSON names); bytes here are the bare payload: Confluent framing is wire.ts's job.
 */
export interface Codec {
  /**
   * encode writes a value with the codec's schema, reporting the paths of the fields the schema has no place for; it
   * throws, naming the offending paths, when the value does not fit.
   */
  encode(value: unknown): Encoding;
  /**
   * decode reads a payload written with `writerSchema` (default: the codec's own schema) and returns it as JSON as
   * the codec's schema sees it, following Avro schema resolution (added fields take their default, removed ones are
   * skipped).
   */
  decode(payload: Buffer, writerSchema?: object): unknown;
}

/** Encoding is a value's payload and the paths of its fields the schema has no place for (`spec.foo`, `a[].b`). */
export type Encoding = { readonly payload: Buffer; readonly unknownPaths: readonly string[] };
