import { type AvroRecord, type AvroType, fullName, isJsonString, isUnion } from '@kcm-bus/schemas/avro/avro-schema.ts';
import { deref, type NamedTypes } from '@kcm-bus/schemas/avro/named-types.ts';
import type { GeneratedCode } from './generated-code.ts';

/** SKIPS are the statements that skip a primitive of the writer's type. */
const SKIPS: Readonly<Record<string, string>> = {
  null: '',
  boolean: 'r.pos++;',
  int: 'r.skipLong();',
  long: 'r.skipLong();',
  float: 'r.pos += 4;',
  double: 'r.pos += 8;',
  bytes: 'r.skipString();',
  string: 'r.skipString();',
};

/** MIN_BYTES are the fewest bytes a value of each primitive takes. */
const MIN_BYTES: Readonly<Record<string, number>> = { null: 0, float: 4, double: 8 };

/**
 * SkipSource generates, in a decoder's module, the source that skips a value of the writer's schema in the bytes
 * without building it: a function per record (each of its fields skipped in turn; an absent optional field is one
 * byte), the other types inline, and an array's or map's block whose writer gave its byte size in one step.
 */
export class SkipSource {
  readonly #code: GeneratedCode;
  readonly #names: NamedTypes;
  readonly #minBytes = new Map<string, number>();

  constructor(code: GeneratedCode, names: NamedTypes) {
    this.#code = code;
    this.#names = names;
  }

  /** value is the source that skips a value of the writer's type. */
  value(type: AvroType): string {
    const resolved = deref(type, this.#names);
    if (isUnion(resolved)) return this.#union(resolved);
    if (isJsonString(resolved)) return 'r.skipString();';
    if (typeof resolved === 'string') {
      const skip = SKIPS[resolved];
      if (skip === undefined) throw new Error(`no Avro type ${resolved} to skip`);
      return skip;
    }
    switch (resolved.type) {
      case 'record':
        return `${this.#record(resolved)}();`;
      case 'enum':
        return 'r.skipLong();';
      case 'array':
        return this.#blocks(resolved.items, '');
      case 'map':
        return this.#blocks(resolved.values, 'r.skipString();');
    }
    throw new Error(`no Avro type ${JSON.stringify(resolved)} to skip`);
  }

  /**
   * minBytes is the fewest bytes a value of the writer's type takes, which bounds the items a block may claim; a
   * record met again inside itself counts 0, so the figure never exceeds the true one.
   */
  minBytes(type: AvroType): number {
    const resolved = deref(type, this.#names);
    if (typeof resolved === 'string') return MIN_BYTES[resolved] ?? 1;
    if (isUnion(resolved) || isJsonString(resolved) || resolved.type !== 'record') return 1;
    const name = fullName(resolved);
    let bytes = this.#minBytes.get(name);
    if (bytes === undefined) {
      this.#minBytes.set(name, 0);
      bytes = resolved.fields.reduce((sum, field) => sum + this.minBytes(field.type), 0);
      this.#minBytes.set(name, bytes);
    }
    return bytes;
  }

  #union(branches: readonly AvroType[]): string {
    const index = this.#code.local('b');
    const cases = branches.map((branch, i) => `if (${index} === ${2 * i}) {\n${this.value(branch)}\n}`);
    return `const ${index} = r.byte();\n${cases.join(' else ')} else r.badIndex("union branch", ${index} / 2, "");`;
  }

  #blocks(items: AvroType, key: string): string {
    const [n, i] = [this.#code.local('n'), this.#code.local('i')];
    return `for (let ${n}; (${n} = r.skipBlock(${this.minBytes(items)})) !== 0; )
for (let ${i} = 0; ${i} < ${n}; ${i}++) {
${key}
${this.value(items)}
}`;
  }

  #record(record: AvroRecord): string {
    return this.#code.functionFor(`skip ${fullName(record)}`, (name) => {
      const fields = record.fields.map((field) => this.value(field.type));
      return `function ${name}() {\n${fields.join('\n')}\n}`;
    });
  }
}
