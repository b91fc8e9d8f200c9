/**
 * Codec is the port through which services turn message values into bytes and back, so that pure code and in-memory
 * doubles never depend on the Avro library. Bytes here are the bare payload: Confluent framing is wire.ts's job.
 */
export interface Codec {
  /** encode writes a value with the codec's schema; it throws, naming the offending paths, when the value does not fit. */
  encode(value: unknown): Buffer;
  /**
   * decode reads a payload written with `writerSchema` (default: the codec's own schema) and returns it as the
   * codec's schema sees it, following Avro schema resolution (added fields take their default, removed ones are skipped).
   */
  decode(payload: Buffer, writerSchema?: object): unknown;
}
