import {
  type AvroEnum,
  type AvroRecord,
  type AvroType,
  fullName,
  isJsonString,
  isUnion,
  jsonNameOf,
} from '@kcm-bus/schemas/avro/avro-schema.ts';
import { deref, indexNamedTypes, type NamedTypes } from '@kcm-bus/schemas/avro/named-types.ts';
import { pathOf, setField, ValueShapeError } from './avro-value.ts';
import { BinaryReader } from './binary-reader.ts';
import { GeneratedCode, literal } from './generated-code.ts';
import { branchFor, checkReaderFields, matchingBranch, type Resolved } from './resolve-types.ts';
import { SkipSource } from './skip-source.ts';

/** Decoder reads Avro binary of one writer schema as the JSON values of one reader schema (compileDecoder). */
export type Decoder = { readonly decode: (payload: Buffer) => unknown };

/** Sink is where a read value goes: source that stores an expression's value, and source for a null. */
type Sink = { readonly value: (expression: string) => string; readonly none: string };

/**
 * compileDecoder compiles a pair of schemas once into code that reads bytes written with `writer` straight into the
 * Kubernetes JSON that `reader` describes, following Avro's schema resolution: fields are matched by name, a
 * writer's field the reader lacks is skipped in the bytes without being built (which is how a reader schema cut down
 * by projectSchema decodes only what a controller reads), a reader's field the writer lacks is left out (its default
 * is null). Null fields are left out (Kubernetes reads absent and null alike), free-form fields are parsed from
 * their JSON text, renamed fields take their JSON name, map keys (`__proto__` too) become own properties. Whether the
 * reader can read the writer's records at all is for avsc to say first (codec.avro.ts); what this code cannot read
 * throws.
 */
export function compileDecoder(writer: AvroType, reader: AvroType): Decoder {
  const binary = new BinaryReader();
  const read = new DecoderSource(writer, reader).compile(binary);
  return {
    decode(payload: Buffer): unknown {
      binary.start(payload);
      try {
        const value = read();
        binary.finish();
        return value;
      } finally {
        binary.release();
      }
    },
  };
}

/** parseJson parses a free-form field's JSON text; the generated code passes its place for the message. */
function parseJson(text: string, stack: readonly string[], depth: number, segment: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ValueShapeError(pathOf(stack, depth, segment), `JSON text (${(err as Error).message})`, text);
  }
}

/** READS are the expressions that read a primitive, by the writer's type. */
const READS: Readonly<Record<string, string>> = {
  boolean: 'r.byte() === 1',
  int: 'r.long()',
  long: 'r.long()',
  float: 'r.float()',
  double: 'r.double()',
  string: 'r.string()',
};

/**
 * DecoderSource generates the decoder of a writer schema read as a reader schema: a function per pair of records
 * (the places' paths on a stack `S` of depth `D`, for messages), a skipper per writer record (skip-source.ts), the
 * other types inline.
 */
class DecoderSource {
  readonly #code = new GeneratedCode();
  readonly #writer: { readonly root: AvroType; readonly names: NamedTypes };
  readonly #reader: { readonly root: AvroType; readonly names: NamedTypes };
  readonly #skip: SkipSource;

  constructor(writer: AvroType, reader: AvroType) {
    this.#writer = { root: writer, names: indexNamedTypes(writer) };
    this.#reader = { root: reader, names: indexNamedTypes(reader) };
    this.#skip = new SkipSource(this.#code, this.#writer.names);
  }

  compile(binary: BinaryReader): () => unknown {
    this.#code.declare('const S = [];\nlet D = 0;');
    const body = this.#read(this.#writer.root, this.#reader.root, { value: (e) => `v = ${e};`, none: 'v = null;' }, '');
    const params = { r: binary, P: pathOf, F: setField, J: parseJson };
    return this.#code.compile(params, `function decode() {\nD = 0;\nlet v;\n${body}\nreturn v;\n}`);
  }

  /** #read is the source that reads a value written as `writer` as `reader` into `sink`. */
  #read(writer: AvroType, reader: AvroType, sink: Sink, segment: string): string {
    const w = deref(writer, this.#writer.names);
    const r = deref(reader, this.#reader.names);
    if (isUnion(w)) return this.#union(w, r, sink, segment);
    return this.#readAs(w, branchFor(w, r, this.#reader.names, segment), sink, segment);
  }

  /** #union reads the writer's branch index, then each branch as the reader's type that resolves it. */
  #union(branches: readonly AvroType[], reader: Resolved, sink: Sink, segment: string): string {
    const index = this.#code.local('b');
    const cases = branches.map((branch, i) => {
      const w = deref(branch, this.#writer.names);
      const r = matchingBranch(w, reader, this.#reader.names);
      const read =
        r === undefined
          ? `r.unreadable(${literal(JSON.stringify(branch))}, P(S, D, ${literal(segment)}));`
          : this.#readAs(w, r, sink, segment);
      return `if (${index} === ${2 * i}) {\n${read}\n}`;
    });
    const bad = `r.badIndex("union branch", ${index} / 2, P(S, D, ${literal(segment)}));`;
    return `const ${index} = r.byte();\n${cases.join(' else ')} else ${bad}`;
  }

  /** #readAs reads a value of a writer's type (no union) as the reader's type that resolves it. */
  #readAs(writer: Resolved, reader: Resolved, sink: Sink, segment: string): string {
    if (writer === 'null') return sink.none;
    if (isUnion(writer)) throw new Error(`${segment || '(root)'}: a union inside a union`);
    if (typeof writer === 'string' || isJsonString(writer)) {
      const read = READS[typeof writer === 'string' ? writer : 'string'];
      if (read === undefined) throw new Error(`${segment || '(root)'}: no JSON value for Avro ${String(writer)}`);
      return sink.value(isJsonString(reader) ? `J(${read}, S, D, ${literal(segment)})` : read);
    }
    switch (writer.type) {
      case 'record':
        return `S[D++] = ${literal(segment)};\n${sink.value(`${this.#record(writer, reader as AvroRecord)}()`)}\nD--;`;
      case 'enum':
        return this.#enum(writer, reader as AvroEnum, sink, segment);
      case 'array':
        return this.#array(writer.items, (reader as typeof writer).items, sink, segment);
      case 'map':
        return this.#map(writer.values, (reader as typeof writer).values, sink, segment);
    }
    throw new Error(`${segment || '(root)'}: no JSON value for Avro ${JSON.stringify(writer)}`);
  }

  /** #enum reads a symbol by the writer's index; one the reader does not know fails as an index out of range. */
  #enum(writer: AvroEnum, reader: AvroEnum, sink: Sink, segment: string): string {
    const [index, symbol] = [this.#code.local('i'), this.#code.local('x')];
    const symbols = writer.symbols.map((s) => (reader.symbols.includes(s) ? s : undefined));
    return `const ${index} = r.long();
const ${symbol} = ${this.#code.constant(symbols)}[${index}];
if (${symbol} === undefined) r.badIndex("enum symbol", ${index}, P(S, D, ${literal(segment)}));
${sink.value(symbol)}`;
  }

  /** #array sizes the array to each block's count before reading its items: pushed to, it would keep spare room. */
  #array(writer: AvroType, reader: AvroType, sink: Sink, segment: string): string {
    const code = this.#code;
    const [array, n, i, j] = [code.local('a'), code.local('n'), code.local('i'), code.local('i')];
    const item = { value: (e: string) => `${array}[${j}++] = ${e};`, none: `${array}[${j}++] = null;` };
    return `const ${array} = [];
for (let ${n}, ${j} = 0; (${n} = r.count(${this.#skip.minBytes(writer)})) !== 0; ) {
${array}.length = ${j} + ${n};
for (let ${i} = 0; ${i} < ${n}; ${i}++) {
${this.#read(writer, reader, item, `${segment}[]`)}
}
}
${sink.value(array)}`;
  }

  #map(writer: AvroType, reader: AvroType, sink: Sink, segment: string): string {
    const [map, n, i, key] = [
      this.#code.local('a'),
      this.#code.local('n'),
      this.#code.local('i'),
      this.#code.local('k'),
    ];
    const value = { value: (e: string) => `F(${map}, ${key}, ${e});`, none: `F(${map}, ${key}, null);` };
    return `const ${map} = {};
for (let ${n}; (${n} = r.count(1)) !== 0; )
for (let ${i} = 0; ${i} < ${n}; ${i}++) {
const ${key} = r.string();
${this.#read(writer, reader, value, `${segment}{}`)}
}
${sink.value(map)}`;
  }

  /** #record names the function that reads a writer's record as the reader's, generating it on first use. */
  #record(writer: AvroRecord, reader: AvroRecord): string {
    return this.#code.functionFor(`${fullName(writer)} as ${fullName(reader)}`, (name) => {
      const fields = writer.fields.map((field) => {
        const target = reader.fields.find((f) => f.name === field.name);
        if (target === undefined) return this.#skip.value(field.type);
        const jsonName = jsonNameOf(target);
        const store =
          jsonName === '__proto__'
            ? (e: string) => `F(o, "__proto__", ${e});`
            : (e: string) => `o[${literal(jsonName)}] = ${e};`;
        return this.#read(field.type, target.type, { value: store, none: '' }, jsonName);
      });
      checkReaderFields(writer, reader);
      return `function ${name}() {\nconst o = {};\n${fields.join('\n')}\nreturn o;\n}`;
    });
  }
}
