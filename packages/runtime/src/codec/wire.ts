/**
 * Confluent's wire format, the framing every Confluent (de)serializer, kafka-avro-console-consumer, Avro-enabled
 * kcat and Kafka UI expect around an Avro payload: magic byte 0, the 4-byte big-endian schema id under which the
 * writer schema is registered, then the Avro binary. Mirrors io.confluent.kafka.serializers.AbstractKafkaSchemaSerDe
 * (MAGIC_BYTE, idSize) and KafkaAvroSerializer.serialize / AbstractKafkaAvroDeserializer.getByteBuffer.
 */

/** MAGIC_BYTE opens every framed message (Confluent's AbstractKafkaSchemaSerDe.MAGIC_BYTE). */
export const MAGIC_BYTE = 0;

/** HEADER_SIZE is the magic byte plus the 4-byte schema id. */
export const HEADER_SIZE = 5;

const MAX_SCHEMA_ID = 0x7fffffff;

/** Unframed is a message split into the id of its writer schema and its Avro payload. */
export type Unframed = { readonly schemaId: number; readonly payload: Buffer };

/** WireFormatError says why bytes are not a Confluent-framed message (e.g. a JSON or plain-Avro producer wrote them). */
export class WireFormatError extends Error {}

/**
 * frame prefixes an Avro payload with the magic byte and the schema id. Ids are Java ints in Confluent's registry
 * (and in Apicurio's Confluent-compatible API), so anything outside 0..2^31-1 is refused rather than wrapped.
 */
export function frame(schemaId: number, payload: Uint8Array): Buffer {
  if (!Number.isInteger(schemaId) || schemaId < 0 || schemaId > MAX_SCHEMA_ID) {
    throw new RangeError(`schema id ${schemaId} is not an integer in 0..${MAX_SCHEMA_ID}`);
  }
  const message = Buffer.allocUnsafe(HEADER_SIZE + payload.length);
  message.writeUInt8(MAGIC_BYTE, 0);
  message.writeInt32BE(schemaId, 1);
  message.set(payload, HEADER_SIZE);
  return message;
}

/**
 * unframe reads the schema id and returns the payload as a view on the same memory (no copy). It throws
 * WireFormatError when the message is shorter than the header or does not start with the magic byte.
 */
export function unframe(message: Buffer): Unframed {
  if (message.length < HEADER_SIZE) {
    throw new WireFormatError(
      `message of ${message.length} bytes is shorter than the ${HEADER_SIZE}-byte Confluent header`,
    );
  }
  const magic = message.readUInt8(0);
  if (magic !== MAGIC_BYTE) {
    throw new WireFormatError(
      `unknown magic byte 0x${magic.toString(16).padStart(2, '0')} (Confluent wire format starts with 0x00)`,
    );
  }
  return { schemaId: message.readInt32BE(1), payload: message.subarray(HEADER_SIZE) };
}
