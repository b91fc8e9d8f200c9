import { lazily } from './avro-value.ts';
import type { AvroType } from '@kcm-bus/schemas/avro/avro-schema.ts';
import type { SchemaRegistry } from '../registry/registry.ts';
import type { Codec } from './codec.ts';
import { frame, unframe } from './wire.ts';
import { hasResidueField, residueOf, restoreResidue } from './residue.ts';
import { RESIDUE_FIELD } from '@kcm-bus/schemas/avro/watch-event-schema.ts';

/** Encoded is a record value in Confluent wire format, and the fields of the input the schema lacked. */
export type Encoded = { readonly bytes: Buffer; readonly unknownPaths: readonly string[] };

/** Decoded is a record value as JSON, with the id of the schema it was written with. */
export type Decoded = { readonly value: unknown; readonly schemaId: number };

/**
 * WriterSchema is a schema records were written with, its codec (built on first use: a serde with a view reads
 * through the view's), and whether it is the reader's own.
 */
type WriterSchema = { readonly codec: () => Codec; readonly schema: object; readonly sameAsReader: boolean };

/** CodecFactory builds a codec for a schema (the avsc adapter in services; doubles in unit tests). */
export type CodecFactory = (schema: object) => Codec;

/**
 * Serde turns a topic's JSON values into Confluent wire-format bytes and back. Encoding registers the
 * writer schema under `<topic>-value` once; decoding fetches the writer schema of each record's id and
 * resolves it against the reader schema (or, for a reader without one, such as `tail`, reads it as written).
 * Nothing is lost on the way: a schema with the field `unknownFields` carries there what of a value it has no place
 * for (residue.ts), and a record written with a schema that has fields the reader's lacks is read as written, once
 * the reader's schema has shown that it can read it. A serde given a `view` (a reader schema cut down to the fields a
 * controller keeps, projectSchema) decodes through it instead: the fields outside it are skipped, not built.
 */
export class Serde {
  readonly #registry: SchemaRegistry;
  readonly #subject: string;
  readonly #reader: object | undefined;
  readonly #makeCodec: CodecFactory;
  readonly #view: object | undefined;
  readonly #codecs = new Map<number, WriterSchema>();
  #readerCodec: Codec | undefined;
  #viewCodec: Codec | undefined;
  #id: Promise<number> | undefined;

  constructor(
    registry: SchemaRegistry,
    topic: string,
    readerSchema: object | undefined,
    makeCodec: CodecFactory,
    view?: object,
  ) {
    this.#registry = registry;
    this.#view = view;
    this.#subject = `${topic}-value`;
    this.#reader = readerSchema;
    this.#makeCodec = makeCodec;
  }

  /** schemaId registers the reader schema as the writer schema of this topic (once) and returns its id. */
  schemaId(): Promise<number> {
    if (!this.#reader) throw new Error(`${this.#subject}: a serde without a schema cannot encode`);
    this.#id ??= this.#registry.register(this.#subject, this.#reader).catch((err: unknown) => {
      this.#id = undefined;
      throw err;
    });
    return this.#id;
  }

  /**
   * encode writes a JSON value with the schema and frames it, reporting the fields the schema lacks; a schema with
   * `unknownFields` carries them there (written again with the residue: a slow path, for an apiserver newer than the
   * schemas).
   */
  async encode(value: unknown): Promise<Encoded> {
    const id = await this.schemaId();
    const reader = this.#reader as AvroType;
    const codec = (this.#readerCodec ??= this.#makeCodec(reader as object));
    const { payload, unknownPaths } = codec.encode(value);
    if (unknownPaths.length === 0 || !hasResidueField(reader)) return { bytes: frame(id, payload), unknownPaths };
    const carried = codec.encode({ ...(value as object), [RESIDUE_FIELD]: residueOf(reader, value) });
    return { bytes: frame(id, carried.payload), unknownPaths };
  }

  /** decode reads a framed value back to JSON (its view's fields only, given one), fetching its writer schema from the registry when new. */
  async decode(bytes: Buffer): Promise<Decoded> {
    const { schemaId, payload } = unframe(bytes);
    const writer = await this.#writer(schemaId);
    if (this.#view) {
      this.#viewCodec ??= this.#makeCodec(this.#view);
      return { value: restoreResidue(this.#viewCodec.decode(payload, writer.schema)), schemaId };
    }
    if (this.#reader && !writer.sameAsReader) {
      // Resolved against the reader's schema only to prove it can read the record (it throws otherwise); the value is
      // read as written, so the fields the reader's schema lacks are kept.
      this.#readerCodec ??= this.#makeCodec(this.#reader);
      this.#readerCodec.decode(payload, writer.schema);
    }
    return { value: restoreResidue(writer.codec().decode(payload)), schemaId };
  }

  async #writer(id: number): Promise<WriterSchema> {
    const cached = this.#codecs.get(id);
    if (cached) return cached;
    const schema = await this.#registry.schemaById(id);
    const entry = {
      codec: lazily(() => this.#makeCodec(schema)),
      schema,
      sameAsReader: JSON.stringify(schema) === JSON.stringify(this.#reader),
    };
    this.#codecs.set(id, entry);
    return entry;
  }
}
