import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ValueShapeError } from './avro-value.ts';
import { toAvroValue } from './to-avro-value.ts';
import { widgetSchema } from './widget.fixture.ts';

const nulls = {
  name: null,
  replicas: null,
  labels: null,
  created: null,
  port: null,
  raw: null,
  _ref: null,
  parts: null,
  byZone: null,
  constructor: null,
};

describe('toAvroValue', () => {
  test('given an empty object, every field is null, even `constructor`, which Object.prototype must not fill in', () => {
    assert.deepEqual(toAvroValue(widgetSchema, {}), { value: nulls, unknownPaths: [] });
  });

  test('given scalars, maps and an int-or-string, values keep their JSON shape (unions unwrapped)', () => {
    const { value } = toAvroValue(widgetSchema, {
      name: 'w',
      replicas: 3,
      labels: { app: 'web' },
      created: '2026-01-02T03:04:05Z',
      port: 8080,
    });
    assert.deepEqual(value, {
      ...nulls,
      name: 'w',
      replicas: 3,
      labels: { app: 'web' },
      created: '2026-01-02T03:04:05Z',
      port: 8080,
    });
    assert.deepEqual(toAvroValue(widgetSchema, { port: 'http' }).value, { ...nulls, port: 'http' });
  });

  test('given a free-form field, it becomes JSON text; a renamed field takes its Avro name', () => {
    const { value } = toAvroValue(widgetSchema, { raw: { kind: 'Plugin', list: [1, 'a'] }, $ref: '#/x' });
    assert.deepEqual(value, { ...nulls, raw: '{"kind":"Plugin","list":[1,"a"]}', _ref: '#/x' });
  });

  test('given nested records through arrays and maps (recursive type), they are converted all the way down', () => {
    const { value } = toAvroValue(widgetSchema, { parts: [{ name: 'p' }], byZone: { a: { replicas: 1 } } });
    assert.deepEqual(value, { ...nulls, parts: [{ ...nulls, name: 'p' }], byZone: { a: { ...nulls, replicas: 1 } } });
  });

  test('given fields the schema lacks, each is reported once by path (arrays as [], maps as {}) and left out', () => {
    const object = {
      name: 'w',
      extra: 1,
      parts: [{ bogus: 1 }, { bogus: 2, other: true }],
      byZone: { a: { deep: {} }, b: { deep: 1 } },
    };
    const { value, unknownPaths } = toAvroValue(widgetSchema, object);
    assert.deepEqual(unknownPaths, ['extra', 'parts[].bogus', 'parts[].other', 'byZone{}.deep']);
    assert.deepEqual(value, { ...nulls, name: 'w', parts: [nulls, nulls], byZone: { a: nulls, b: nulls } });
  });

  test('given a value of the wrong shape, ValueShapeError names its path', () => {
    assert.throws(
      () => toAvroValue(widgetSchema, { parts: [{ replicas: 'three' }] }),
      (err: unknown) => {
        assert.ok(err instanceof ValueShapeError);
        assert.equal(err.path, 'parts[].replicas');
        return true;
      },
    );
    assert.throws(() => toAvroValue(widgetSchema, { replicas: 1.5 }), /replicas: expected int, got number/);
    assert.throws(() => toAvroValue(widgetSchema, { labels: ['a'] }), /labels: expected an object, got an array/);
    assert.throws(() => toAvroValue(widgetSchema, { port: true }), /port: expected one of/);
  });
});
