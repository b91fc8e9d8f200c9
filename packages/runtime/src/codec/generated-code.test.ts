import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AvroRecord } from '@kcm-bus/schemas/avro/avro-schema.ts';
import { compileDecoder } from './compile-decoder.ts';
import { compileEncoder } from './compile-encoder.ts';
import { GeneratedCode, literal } from './generated-code.ts';

/** HOSTILE are JSON names written to break out of a string literal, a comment or a template into code. */
const HOSTILE = [
  '"]; globalThis.pwned = true; //',
  '\\"); globalThis.pwned = true; ("',
  "'; globalThis.pwned = true; '",
  '\u2028globalThis.pwned = true',
  '*/ globalThis.pwned = true; /*',
  '${globalThis.pwned = true}`',
  '\ud800 lone surrogate',
  '\n\r\t\u0000',
  '__proto__',
  'constructor',
];

describe('GeneratedCode: schema strings reach the source only as string literals', () => {
  test('given hostile strings, literal writes each as a literal that evaluates to itself', () => {
    for (const text of HOSTILE) assert.equal(new Function(`return ${literal(text)};`)(), text);
  });

  test('given a constant, the source holds a reference to it, not its value', () => {
    const code = new GeneratedCode();
    const read = code.constant('"); globalThis.pwned = true; ("');
    assert.equal(code.compile<string>({}, read), '"); globalThis.pwned = true; ("');
    assert.equal((globalThis as { pwned?: boolean }).pwned, undefined);
  });

  test('given fields with hostile JSON names, a value is written and read back under those names and nothing runs', () => {
    const schema: AvroRecord = {
      type: 'record',
      name: 'Hostile',
      namespace: 'io.kcmbus.test.v1',
      fields: HOSTILE.map((jsonName, i) => ({
        name: `f${i}`,
        type: ['null', 'string'],
        default: null,
        'kcmbus.jsonName': jsonName,
      })),
    };
    const value = Object.fromEntries(HOSTILE.map((jsonName, i) => [jsonName, `value ${i}`]));
    const back = compileDecoder(schema, schema).decode(compileEncoder(schema).encode(value).payload) as object;
    assert.deepEqual(Object.entries(back), Object.entries(value));
    assert.equal((globalThis as { pwned?: boolean }).pwned, undefined);
  });
});
