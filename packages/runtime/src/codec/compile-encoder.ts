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
import { accepts } from './avro-value.ts';
import { BinaryWriter } from './binary-writer.ts';
import type { Encoding } from './codec.ts';
import { AvroEncodeError, EncodeState } from './encode-state.ts';
import { GeneratedCode, literal } from './generated-code.ts';

/** Encoder writes the JSON values of one schema as Avro binary (compileEncoder). */
export type Encoder = { readonly encode: (value: unknown) => Encoding };

const ENCODERS = new WeakMap<object, Encoder>();

/**
 * compileEncoder compiles a schema once (kept with the schema document) into code that writes a Kubernetes JSON
 * value straight to Avro binary, as avsc would write the value's Avro form with unwrapped unions: absent and null
 * fields as the null branch, free-form fields as JSON text, renamed fields (`kcmbus.jsonName`) read by their JSON
 * name. Each record costs a test per field its schema has (an absent one is one byte) and nothing else: no object is
 * built. Fields the schema lacks cannot be written, so they are never dropped silently: each is reported in
 * `unknownPaths` (`spec.foo`; array items as `[]`, map values as `{}`; each path once), found by comparing the
 * number of an object's keys with the number of fields read. A value that does not fit throws AvroEncodeError
 * naming every misfit's path.
 */
export function compileEncoder(schema: AvroType): Encoder {
  const cached = typeof schema === 'object' ? ENCODERS.get(schema) : undefined;
  if (cached) return cached;
  const writer = new BinaryWriter();
  const state = new EncodeState();
  const write = new EncoderSource(schema).compile(writer, state);
  const encoder = {
    encode(value: unknown): Encoding {
      for (let attempt = 0; attempt === 0 || writer.overflowed(); attempt++) {
        writer.start();
        state.reset();
        write(value);
      }
      if (state.misfits.length > 0) throw new AvroEncodeError(nameOf(schema), state.misfits);
      return { payload: writer.written(), unknownPaths: [...state.unknownPaths] };
    },
  };
  if (typeof schema === 'object') ENCODERS.set(schema, encoder);
  return encoder;
}

function nameOf(schema: AvroType): string {
  return typeof schema === 'object' && 'name' in schema ? fullName(schema) : JSON.stringify(schema);
}

/** WRITES are, for each primitive, the test that a value in variable `x` fits it and the source that writes it. */
const WRITES: Readonly<
  Record<string, { readonly fits: (x: string) => string; readonly write: (x: string) => string }>
> = {
  null: { fits: (x) => `${x} === null`, write: () => '{}' },
  boolean: { fits: (x) => `typeof ${x} === "boolean"`, write: (x) => `w.byte(${x} ? 1 : 0);` },
  int: { fits: (x) => `typeof ${x} === "number" && (${x} | 0) === ${x}`, write: (x) => `w.long(${x});` },
  long: { fits: (x) => `Number.isSafeInteger(${x})`, write: (x) => `w.long(${x});` },
  float: { fits: (x) => `typeof ${x} === "number"`, write: (x) => `w.float(${x});` },
  double: { fits: (x) => `typeof ${x} === "number"`, write: (x) => `w.double(${x});` },
  string: { fits: (x) => `typeof ${x} === "string"`, write: (x) => `w.string(${x});` },
};

/**
 * EncoderSource generates the encoder of one schema document: a function per record (its place's path kept on a
 * stack `S` of depth `D`, only read to report), the other types inline where they are met.
 */
class EncoderSource {
  readonly #code = new GeneratedCode();
  readonly #names: NamedTypes;
  readonly #root: AvroType;

  constructor(root: AvroType) {
    this.#root = root;
    this.#names = indexNamedTypes(root);
  }

  compile(writer: BinaryWriter, state: EncodeState): (value: unknown) => void {
    this.#code.declare('const S = [];\nlet D = 0;');
    const body = this.#value(this.#root, 'x', '');
    return this.#code.compile({ w: writer, st: state }, `function encode(x) {\nD = 0;\n${body}\n}`);
  }

  /** #value is the source that writes the value in variable `x` at the place whose last segment is `segment`. */
  #value(type: AvroType, x: string, segment: string): string {
    const resolved = deref(type, this.#names);
    if (isUnion(resolved)) return this.#union(resolved, x, segment);
    if (isJsonString(resolved)) return `w.string(st.jsonText(${x}, S, D, ${literal(segment)}));`;
    if (typeof resolved === 'string') return this.#primitive(resolved, x, segment);
    switch (resolved.type) {
      case 'record':
        return `S[D++] = ${literal(segment)};\n${this.#record(resolved)}(${x});\nD--;`;
      case 'array':
        return this.#array(resolved.items, x, segment);
      case 'map':
        return this.#map(resolved.values, x, segment);
      case 'enum':
        return this.#enum(resolved, x, segment);
    }
    throw new Error(`${segment || '(root)'}: no JSON value for Avro ${JSON.stringify(resolved)}`);
  }

  #misfit(segment: string, expected: string, x: string): string {
    return `st.misfit(S, D, ${literal(segment)}, ${literal(expected)}, ${x});`;
  }

  #primitive(type: string, x: string, segment: string): string {
    const primitive = WRITES[type];
    if (primitive === undefined) throw new Error(`${segment || '(root)'}: no JSON value for Avro ${type}`);
    return `if (${primitive.fits(x)}) ${primitive.write(x)}\nelse ${this.#misfit(segment, type, x)}`;
  }

  /** #union writes the null branch for an absent or null value, else the first branch that accepts it (avsc's rule). */
  #union(branches: readonly AvroType[], x: string, segment: string): string {
    if (branches.length > 64) throw new Error(`${segment || '(root)'}: a union of over 64 branches`);
    const nullIndex = branches.indexOf('null');
    const others = branches.flatMap((branch, index) => (branch === 'null' ? [] : [{ branch, index }]));
    const expected = `one of ${JSON.stringify(branches)}`;
    const ifNull = nullIndex < 0 ? this.#misfit(segment, expected, x) : `w.byte(${2 * nullIndex});`;
    const lines = [`if (${x} === undefined || ${x} === null) ${ifNull}`];
    for (const { branch, index } of others) {
      const resolved = deref(branch, this.#names);
      const test = others.length === 1 ? 'true' : `${this.#code.constant((v: unknown) => accepts(resolved, v))}(${x})`;
      lines.push(`else if (${test}) {\nw.byte(${2 * index});\n${this.#value(branch, x, segment)}\n}`);
    }
    if (others.length !== 1) lines.push(`else ${this.#misfit(segment, expected, x)}`);
    return lines.join('\n');
  }

  #array(items: AvroType, x: string, segment: string): string {
    const [n, i] = [this.#code.local('n'), this.#code.local('i')];
    const item = this.#code.local('x');
    return `if (Array.isArray(${x})) {
const ${n} = ${x}.length;
if (${n} > 0) w.long(${n});
for (let ${i} = 0; ${i} < ${n}; ${i}++) {
const ${item} = ${x}[${i}];
${this.#value(items, item, `${segment}[]`)}
}
w.byte(0);
} else ${this.#misfit(segment, 'an array', x)}`;
  }

  #map(values: AvroType, x: string, segment: string): string {
    const [keys, i, key] = [this.#code.local('k'), this.#code.local('i'), this.#code.local('k')];
    const item = this.#code.local('x');
    return `if (typeof ${x} === "object" && ${x} !== null && !Array.isArray(${x})) {
const ${keys} = Object.keys(${x});
if (${keys}.length > 0) w.long(${keys}.length);
for (let ${i} = 0; ${i} < ${keys}.length; ${i}++) {
const ${key} = ${keys}[${i}];
w.string(${key});
const ${item} = ${x}[${key}];
${this.#value(values, item, `${segment}{}`)}
}
w.byte(0);
} else ${this.#misfit(segment, 'an object', x)}`;
  }

  #enum(type: AvroEnum, x: string, segment: string): string {
    const index = this.#code.local('i');
    return `const ${index} = ${this.#code.constant(type.symbols)}.indexOf(${x});
if (${index} >= 0) w.long(${index});
else ${this.#misfit(segment, type.symbols.join('|'), x)}`;
  }

  /** #record names the function that writes a record's object, generating it on first use. */
  #record(record: AvroRecord): string {
    return this.#code.functionFor(fullName(record), (name) => {
      const known = this.#code.constant(new Set(record.fields.map(jsonNameOf)));
      const fields = record.fields.map((field) => {
        const jsonName = jsonNameOf(field);
        const read =
          jsonName in Object.prototype
            ? `Object.hasOwn(v, ${literal(jsonName)}) ? v[${literal(jsonName)}] : undefined`
            : `v[${literal(jsonName)}]`;
        return `x = ${read};\nif (x !== undefined) n++;\n${this.#value(field.type, 'x', jsonName)}`;
      });
      return `function ${name}(v) {
if (typeof v !== "object" || v === null || Array.isArray(v)) return ${this.#misfit('', 'an object', 'v')}
const u = st.unknownPaths.length;
let c = 0, n = 0, x;
for (const k in v) c++;
${fields.join('\n')}
if (n !== c) st.unknown(v, ${known}, S, D, u);
}`;
    });
  }
}
