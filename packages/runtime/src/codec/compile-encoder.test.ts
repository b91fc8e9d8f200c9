import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import avro from 'avsc';
import { avscOptions } from './codec.avro.ts';
import { compileEncoder } from './compile-encoder.ts';
import { AvroEncodeError } from './encode-state.ts';
import { widgetNulls as nulls, widgetSchema } from './widget.fixture.ts';

/** avscReads is the Avro value avsc, the reference reader, reads from what the encoder wrote, as plain objects. */
const avsc = avro.Type.forSchema(widgetSchema as avro.Schema, avscOptions());
const avscReads = (payload: Buffer): unknown => JSON.parse(JSON.stringify(avsc.fromBuffer(payload)));

/** encode writes a widget with the compiled encoder and returns what avsc reads of it, and the unknown paths. */
function encode(object: unknown): { value: unknown; unknownPaths: readonly string[] } {
  const { payload, unknownPaths } = compileEncoder(widgetSchema).encode(object);
  return { value: avscReads(payload), unknownPaths };
}

describe('compileEncoder: JSON straight to Avro binary, read back by avsc', () => {
  test('given an empty object, every field is null, even `constructor`, which Object.prototype must not fill in', () => {
    assert.deepEqual(encode({}), { value: nulls, unknownPaths: [] });
  });

  test('given scalars, maps and an int-or-string, values keep their JSON shape (unions unwrapped)', () => {
    const object = { name: 'w', replicas: 3, labels: { app: 'web' }, created: '2026-01-02T03:04:05Z', port: 8080 };
    assert.deepEqual(encode(object).value, { ...nulls, ...object });
    assert.deepEqual(encode({ port: 'http' }).value, { ...nulls, port: 'http' });
  });

  test('given a free-form field, it becomes JSON text; a renamed field takes its Avro name', () => {
    const { value } = encode({ raw: { kind: 'Plugin', list: [1, 'a'] }, $ref: '#/x' });
    assert.deepEqual(value, { ...nulls, raw: '{"kind":"Plugin","list":[1,"a"]}', _ref: '#/x' });
  });

  test('given nested records through arrays and maps (recursive type), they are written all the way down', () => {
    const { value } = encode({ parts: [{ name: 'p' }], byZone: { a: { replicas: 1 } } });
    assert.deepEqual(value, { ...nulls, parts: [{ ...nulls, name: 'p' }], byZone: { a: { ...nulls, replicas: 1 } } });
  });

  test('given fields the schema lacks, each is reported once by path (arrays as [], maps as {}), a record before its fields, and left out', () => {
    const object = {
      name: 'w',
      parts: [
        { bogus: 1, parts: [{ deeper: 1 }] },
        { bogus: 2, other: true },
      ],
      byZone: { a: { deep: {} }, b: { deep: 1 } },
      extra: 1,
    };
    const { value, unknownPaths } = encode(object);
    assert.deepEqual(unknownPaths, [
      'extra',
      'parts[].bogus',
      'parts[].parts[].deeper',
      'parts[].other',
      'byZone{}.deep',
    ]);
    assert.deepEqual(value, {
      ...nulls,
      name: 'w',
      parts: [{ ...nulls, parts: [nulls] }, nulls],
      byZone: { a: nulls, b: nulls },
    });
  });

  test('given a known field set to undefined, it is written as absent and not reported', () => {
    assert.deepEqual(encode({ name: 'w', replicas: undefined }), { value: { ...nulls, name: 'w' }, unknownPaths: [] });
  });

  test('given a value larger than the scratch buffer, it is written whole', () => {
    const name = 'x'.repeat(100_000);
    assert.deepEqual(encode({ name, parts: [{ name }] }).value, { ...nulls, name, parts: [{ ...nulls, name }] });
  });

  test('given values of the wrong shape, AvroEncodeError names the path of each', () => {
    const misfits = (object: unknown): readonly string[] => {
      try {
        compileEncoder(widgetSchema).encode(object);
      } catch (err) {
        assert.ok(err instanceof AvroEncodeError);
        return [err.message, ...err.paths];
      }
      return assert.fail('no misfit');
    };
    assert.deepEqual(misfits({ parts: [{ replicas: 'three' }], byZone: { z: 1 } }).slice(1), [
      'parts[].replicas',
      'byZone{}',
    ]);
    assert.match(misfits({ replicas: 1.5 })[0] ?? '', /replicas: expected int, got number/);
    assert.match(misfits({ replicas: 2 ** 31 })[0] ?? '', /replicas: expected int, got number/);
    assert.match(misfits({ labels: ['a'] })[0] ?? '', /labels: expected an object, got an array/);
    assert.match(misfits({ port: true })[0] ?? '', /port: expected one of/);
    assert.match(misfits('w')[0] ?? '', /\(root\): expected an object, got string/);
  });
});
