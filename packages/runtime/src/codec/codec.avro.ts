import avro from 'avsc';
import type { AvroType } from '@kcm-bus/schemas/avro/avro-schema.ts';
import type { Codec, Encoding } from './codec.ts';
import { compileDecoder, type Decoder } from './compile-decoder.ts';
import { compileEncoder, type Encoder } from './compile-encoder.ts';

/**
 * avscOptions are the avsc options of every kcm-bus schema. Unions are unwrapped (`wrapUnions: 'never'`): a value
 * of `["null","string"]` is `null` or the string itself, never `{"string": …}`, so Kubernetes JSON and Avro values
 * share one shape; the generator only emits unions whose branches JS tells apart. A fresh object on each call,
 * because avsc keeps its registry of named types in the options it is given (a shared one would make a second version
 * of a schema a "duplicate type name").
 */
export function avscOptions(): { wrapUnions: 'never' } {
  return { wrapUnions: 'never' };
}

/**
 * AvroCodec is the Codec of one reader schema. Values are written and read by the code compiled for the schema
 * (compile-encoder.ts, compile-decoder.ts: straight from JSON to bytes and back, in time proportional to the fields a
 * value has); avsc is asked what a library maintained against the Avro specification knows best: whether the schema
 * is valid Avro (when the codec is built), and whether records of a writer schema can be read as it at all (Avro's
 * schema resolution, which is what makes BACKWARD, new reader and old records, and FORWARD, old reader and new
 * records, real), once per distinct writer schema, before a decoder of the pair is compiled.
 */
export class AvroCodec implements Codec {
  readonly schema: object;
  readonly #type: avro.Type;
  readonly #canonical: string;
  readonly #decoders = new Map<string, Decoder>();
  /** #texts: each writer schema object's text, computed once (a pod's schema is tens of kilobytes of JSON). */
  readonly #texts = new WeakMap<object, string>();
  #encoder: Encoder | undefined;

  constructor(schema: object) {
    this.schema = schema;
    this.#type = avro.Type.forSchema(schema as avro.Schema, avscOptions());
    this.#canonical = JSON.stringify(schema);
  }

  /** encode writes a JSON value as Avro binary; on a misfit it throws AvroEncodeError naming every offending path. */
  encode(value: unknown): Encoding {
    this.#encoder ??= compileEncoder(this.schema as AvroType);
    return this.#encoder.encode(value);
  }

  /** decode reads Avro binary written with `writerSchema` (default: this codec's schema) as this codec's schema. */
  decode(payload: Buffer, writerSchema?: object): unknown {
    const writer = writerSchema ?? this.schema;
    const text = writer === this.schema ? this.#canonical : this.#textOf(writer);
    let decoder = this.#decoders.get(text);
    if (decoder === undefined) {
      if (text !== this.#canonical) this.#checkResolvable(writer);
      this.#decoders.set(text, (decoder = compileDecoder(writer as AvroType, this.schema as AvroType)));
    }
    return decoder.decode(payload);
  }

  #textOf(schema: object): string {
    let text = this.#texts.get(schema);
    if (text === undefined) this.#texts.set(schema, (text = JSON.stringify(schema)));
    return text;
  }

  #checkResolvable(writerSchema: object): void {
    try {
      this.#type.createResolver(avro.Type.forSchema(writerSchema as avro.Schema, avscOptions()));
    } catch (err) {
      throw new Error(`records of the writer schema cannot be read as ${this.#type.name}: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }
}
