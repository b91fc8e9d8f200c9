import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileDecoder } from './compile-decoder.ts';
import { compileEncoder } from './compile-encoder.ts';
import { mergeResidue, residueOf, restoreResidue } from './residue.ts';
import { widgetSchema } from './widget.fixture.ts';

const object = {
  name: 'w',
  extra: { deep: [1, 2] },
  parts: [{ name: 'a' }, { name: 'b', bogus: 2, parts: [{ later: true }] }],
  byZone: { a: { replicas: 1 }, b: { replicas: 2, zoneOnly: 'x' } },
  labels: { app: 'web' },
};

/** throughSchema is what the schema alone keeps of a value: encode to Avro and back. */
const throughSchema = (value: unknown): unknown =>
  compileDecoder(widgetSchema, widgetSchema).decode(compileEncoder(widgetSchema).encode(value).payload);

describe('residueOf', () => {
  test('given fields the schema lacks, the residue keeps only the keys leading to them, arrays index-aligned', () => {
    assert.deepEqual(residueOf(widgetSchema, object), {
      extra: { deep: [1, 2] },
      parts: [null, { bogus: 2, parts: [{ later: true }] }],
      byZone: { b: { zoneOnly: 'x' } },
    });
  });

  test('given a value the schema has a place for everywhere, there is no residue', () => {
    assert.equal(
      residueOf(widgetSchema, { name: 'w', parts: [{ name: 'a' }], byZone: { a: {} }, raw: { free: 1 } }),
      undefined,
    );
  });
});

describe('mergeResidue', () => {
  test('given what the schema kept and the residue, merging gives the original value back', () => {
    const kept = throughSchema(object);
    assert.notDeepEqual(kept, object);
    assert.deepEqual(mergeResidue(kept, structuredClone(residueOf(widgetSchema, object))), object);
  });

  test('given a residue key `__proto__`, it becomes an own property and Object.prototype is untouched', () => {
    const merged = mergeResidue({ name: 'w' }, JSON.parse('{"__proto__":{"polluted":true}}')) as Record<
      string,
      unknown
    >;
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.deepEqual(Object.getOwnPropertyDescriptor(merged, '__proto__')?.value, { polluted: true });
  });

  test('given a residue item for an index the value no longer has, it is ignored rather than inventing an item', () => {
    assert.deepEqual(mergeResidue({ parts: [{ name: 'a' }] }, { parts: [null, { bogus: 1 }] }), {
      parts: [{ name: 'a' }],
    });
  });
});

describe('restoreResidue', () => {
  test('given a decoded record with `unknownFields`, it is taken off and merged back', () => {
    assert.deepEqual(restoreResidue({ key: 'k', object: { name: 'w' }, unknownFields: { object: { extra: 1 } } }), {
      key: 'k',
      object: { name: 'w', extra: 1 },
    });
  });

  test('given a record without it, the same value is returned', () => {
    const value = { key: 'k' };
    assert.equal(restoreResidue(value), value);
  });
});
