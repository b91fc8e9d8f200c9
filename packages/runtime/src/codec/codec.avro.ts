import avro from 'avsc';
import type { Codec } from './codec.ts';

/**
 * avscOptions are the avsc options of every kcm-bus codec. Unions are unwrapped (`wrapUnions: 'never'`): a value
 * of `["null","string"]` is `null` or the string itself, never `{"string": …}`, so Kubernetes JSON and Avro values
 * share one shape (see avro-value.ts); the generator only emits unions whose branches JS tells
 * apart. A fresh object on each call, because avsc keeps its registry of named types in the options it is given
 * (a shared one would make a second version of a schema a "duplicate type name").
 */
export function avscOptions(): { wrapUnions: 'never' } {
  return { wrapUnions: 'never' };
}

type Resolver = ReturnType<avro.Type['createResolver']>;

/** SCRATCH_BYTES is the encode buffer a codec starts with: a watched object of a few kilobytes fits in it. */
const SCRATCH_BYTES = 64 * 1024;

/** AvroEncodeError lists where a value does not fit the schema (avsc's isValid paths, e.g. `object.spec.replicas`). */
export class AvroEncodeError extends Error {
  readonly paths: readonly string[];
  constructor(schemaName: string, paths: readonly string[], cause: unknown) {
    super(`value does not fit ${schemaName} at ${paths.join(', ') || '(unknown path)'}`, { cause });
    this.paths = paths;
  }
}

/**
 * AvroCodec is the avsc implementation of Codec for one reader schema. decode resolves a writer schema against it
 * with avsc's resolver (Avro's schema resolution rules), which is what makes BACKWARD (new reader, old records) and
 * FORWARD (old reader, new records) compatibility real; resolvers are built once per distinct writer schema.
 */
export class AvroCodec implements Codec {
  readonly schema: object;
  readonly #type: avro.Type;
  readonly #canonical: string;
  readonly #resolvers = new Map<string, Resolver>();
  /** #texts: each writer schema object's text, computed once (a pod's schema is tens of kilobytes of JSON). */
  readonly #texts = new WeakMap<object, string>();
  /**
   * #scratch is where every value is encoded first, grown when one does not fit: avsc's toBuffer encodes a value of
   * over 1 KiB twice (into its shared 1 KiB buffer, then again into one of the right size), and a pod is larger.
   */
  #scratch = Buffer.allocUnsafe(SCRATCH_BYTES);

  constructor(schema: object) {
    this.schema = schema;
    this.#type = avro.Type.forSchema(schema as avro.Schema, avscOptions());
    this.#canonical = JSON.stringify(schema);
  }

  /** encode writes a value as Avro binary; on a misfit it throws AvroEncodeError naming every offending path. */
  encode(value: unknown): Buffer {
    try {
      let end = this.#type.encode(value, this.#scratch, 0);
      if (end < 0) {
        this.#scratch = Buffer.allocUnsafe(Math.max(2 * this.#scratch.length, this.#scratch.length - end));
        end = this.#type.encode(value, this.#scratch, 0);
      }
      return Buffer.from(this.#scratch.subarray(0, end));
    } catch (err) {
      const paths: string[] = [];
      this.#type.isValid(value, { errorHook: (path) => paths.push(path.join('.')) });
      throw new AvroEncodeError(this.#type.name ?? this.#type.typeName, paths, err);
    }
  }

  /** decode reads Avro binary written with `writerSchema` (default: this codec's schema) as this codec's schema. */
  decode(payload: Buffer, writerSchema?: object): unknown {
    const writer = writerSchema === undefined ? undefined : this.#textOf(writerSchema);
    if (writer === undefined || writer === this.#canonical) return this.#type.fromBuffer(payload);
    return this.#type.fromBuffer(payload, this.#resolverFor(writer, writerSchema as object));
  }

  #textOf(schema: object): string {
    let text = this.#texts.get(schema);
    if (text === undefined) this.#texts.set(schema, (text = JSON.stringify(schema)));
    return text;
  }

  #resolverFor(key: string, writerSchema: object): Resolver {
    const cached = this.#resolvers.get(key);
    if (cached) return cached;
    let resolver: Resolver;
    try {
      resolver = this.#type.createResolver(avro.Type.forSchema(writerSchema as avro.Schema, avscOptions()));
    } catch (err) {
      throw new Error(`records of the writer schema cannot be read as ${this.#type.name}: ${(err as Error).message}`, {
        cause: err,
      });
    }
    this.#resolvers.set(key, resolver);
    return resolver;
  }
}
