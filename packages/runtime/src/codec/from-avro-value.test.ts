import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ValueShapeError } from './avro-value.ts';
import { fromAvroValue } from './from-avro-value.ts';
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

describe('fromAvroValue', () => {
  test('given an Avro value, nulls are omitted, JSON text is parsed and renamed fields get their JSON name back', () => {
    const value = { ...nulls, name: 'w', raw: '{"a":[1,{"b":null}]}', _ref: '#/x', port: 'http', constructor: false };
    assert.deepEqual(fromAvroValue(widgetSchema, value), {
      name: 'w',
      raw: { a: [1, { b: null }] },
      $ref: '#/x',
      port: 'http',
      constructor: false,
    });
  });

  test('given records decoded into class instances (as avsc does), plain objects come back', () => {
    class Decoded {
      constructor(fields: Record<string, unknown>) {
        Object.assign(this, fields);
      }
    }
    const value = new Decoded({ ...nulls, parts: [new Decoded({ ...nulls, replicas: 2 })] });
    assert.deepEqual(fromAvroValue(widgetSchema, value), { parts: [{ replicas: 2 }] });
  });

  test('given Kubernetes objects, fromAvroValue(toAvroValue(x)) is x (empty maps, arrays and objects included)', () => {
    const objects: readonly Record<string, unknown>[] = [
      {},
      { name: 'w', replicas: 0, labels: {}, parts: [], port: 0 },
      { created: '2026-01-02T03:04:05.123456Z', raw: { nested: { deep: [true, 1.5, 'x', null] } }, $ref: '' },
      { parts: [{}, { byZone: { z: { port: '50%', labels: { 'app.kubernetes.io/name': 'w' } } } }], constructor: true },
    ];
    for (const object of objects)
      assert.deepEqual(fromAvroValue(widgetSchema, toAvroValue(widgetSchema, object).value), object);
  });

  test('given an explicit null, it comes back absent: the one normalisation (Kubernetes reads both alike)', () => {
    assert.deepEqual(fromAvroValue(widgetSchema, toAvroValue(widgetSchema, { name: null, replicas: 1 }).value), {
      replicas: 1,
    });
  });

  test('given a JSON field that holds no JSON, ValueShapeError names it', () => {
    assert.throws(
      () => fromAvroValue(widgetSchema, { ...nulls, parts: [{ ...nulls, raw: '{' }] }),
      (err: unknown) => {
        assert.ok(err instanceof ValueShapeError);
        assert.equal(err.path, 'parts[].raw');
        return true;
      },
    );
  });
});
