import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import avro from 'avsc';
import type { AvroRecord, AvroType } from '@kcm-bus/schemas/avro/avro-schema.ts';
import { ValueShapeError } from './avro-value.ts';
import { AvroDecodeError } from './binary-reader.ts';
import { avscOptions } from './codec.avro.ts';
import { compileDecoder } from './compile-decoder.ts';
import { compileEncoder } from './compile-encoder.ts';
import { widgetNulls as nulls, widgetSchema } from './widget.fixture.ts';

/** written is what avsc, the reference writer, writes of an Avro value of `schema`. */
const written = (schema: AvroType, value: unknown): Buffer =>
  avro.Type.forSchema(schema as avro.Schema, avscOptions()).toBuffer(value);
const decode = (payload: Buffer, writer: AvroType = widgetSchema, reader: AvroType = writer): unknown =>
  compileDecoder(writer, reader).decode(payload);
const roundTrip = (object: unknown): unknown => decode(compileEncoder(widgetSchema).encode(object).payload);

const record = (fields: readonly [string, AvroType][]): AvroRecord => ({
  type: 'record',
  name: 'Gadget',
  namespace: 'io.kcmbus.test.v1',
  fields: fields.map(([name, type]) => ({ name, type, ...(Array.isArray(type) ? { default: null } : {}) })),
});

describe('compileDecoder: Avro binary straight to JSON', () => {
  test('given an Avro value, nulls are left out, JSON text is parsed and renamed fields get their JSON name back', () => {
    const value = { ...nulls, name: 'w', raw: '{"a":[1,{"b":null}]}', _ref: '#/x', port: 'http', constructor: false };
    assert.deepEqual(decode(written(widgetSchema, value)), {
      name: 'w',
      raw: { a: [1, { b: null }] },
      $ref: '#/x',
      port: 'http',
      constructor: false,
    });
  });

  test('given Kubernetes objects, decode(encode(x)) is x (empty maps, arrays and objects, non-ASCII text included)', () => {
    const objects: readonly Record<string, unknown>[] = [
      {},
      { name: 'w', replicas: 0, labels: {}, parts: [], port: 0 },
      { created: '2026-01-02T03:04:05.123456Z', raw: { nested: { deep: [true, 1.5, 'x', null] } }, $ref: '' },
      { parts: [{}, { byZone: { z: { port: '50%', labels: { 'app.kubernetes.io/name': 'w' } } } }], constructor: true },
      { name: 'wïdget-日本-😀 and a name longer than sixty-four characters, to take the long way', replicas: -2 },
    ];
    for (const object of objects) assert.deepEqual(roundTrip(object), object);
  });

  test('given an explicit null, it comes back absent: the one normalisation (Kubernetes reads both alike)', () => {
    assert.deepEqual(roundTrip({ name: null, replicas: 1 }), { replicas: 1 });
  });

  test('given map keys `__proto__`, they come back own properties and no prototype is touched', () => {
    const labels = JSON.parse('{"__proto__":"p","app":"web"}') as object;
    const byZone = JSON.parse('{"__proto__":{"replicas":1}}') as object;
    const back = roundTrip({ labels, byZone }) as { labels: object; byZone: object };
    assert.deepEqual(Object.getOwnPropertyDescriptor(back.labels, '__proto__')?.value, 'p');
    assert.deepEqual(Object.getOwnPropertyDescriptor(back.byZone, '__proto__')?.value, { replicas: 1 });
    assert.equal(Object.getPrototypeOf(back.byZone), Object.prototype);
    assert.equal(({} as Record<string, unknown>)['replicas'], undefined);
  });

  test('given a JSON field that holds no JSON, ValueShapeError names its path', () => {
    assert.throws(
      () => decode(written(widgetSchema, { ...nulls, parts: [{ ...nulls, raw: '{' }] })),
      (err: unknown) => err instanceof ValueShapeError && err.path === 'parts[].raw',
    );
  });
});

describe('compileDecoder: a writer schema read as another (Avro schema resolution)', () => {
  const writer = record([
    ['name', 'string'],
    ['count', ['null', 'int']],
    ['extra', ['null', { type: 'map', values: { type: 'array', items: ['null', 'double', 'string'] } }]],
    ['flag', 'boolean'],
  ]);
  const value = { name: 'g', count: 2, extra: { a: [1.5, 'x', null] }, flag: true };

  test("given a reader without some of the writer's fields, they are skipped in the bytes and the rest is read", () => {
    const reader = record([
      ['name', 'string'],
      ['flag', 'boolean'],
    ]);
    assert.deepEqual(decode(written(writer, value), writer, reader), { name: 'g', flag: true });
  });

  test('given a reader with a field the writer lacks (default null) and a wider number, they read as Avro says', () => {
    const reader = record([
      ['name', 'string'],
      ['count', ['null', 'long', 'string']],
      ['zone', ['null', 'string']],
      ['flag', 'boolean'],
    ]);
    assert.deepEqual(decode(written(writer, value), writer, reader), { name: 'g', count: 2, flag: true });
  });

  test('given a reader field the writer lacks and without default null, or one with aliases, compiling the pair throws', () => {
    const reader = record([['zone', 'string']]);
    assert.throws(() => compileDecoder(writer, reader), /Gadget\.zone: the writer lacks it and it has no default null/);
    const aliased = {
      ...reader,
      fields: [{ name: 'zone', type: 'string', aliases: ['name'] }],
    } as unknown as AvroRecord;
    assert.throws(() => compileDecoder(writer, aliased), /Gadget\.zone: field aliases are not supported/);
  });

  test('given blocks a writer wrote with their byte size (negative counts), they are read, or skipped in one step', () => {
    const blocks = record([
      ['tags', { type: 'array', items: 'string' }],
      ['name', 'string'],
    ]);
    const payload = Buffer.from([0x03, 0x08, 0x02, 0x61, 0x02, 0x62, 0x00, 0x02, 0x67]);
    assert.deepEqual(decode(payload, blocks), { tags: ['a', 'b'], name: 'g' });
    assert.deepEqual(decode(payload, blocks, record([['name', 'string']])), { name: 'g' });
  });
});

describe('compileDecoder: bytes that are no value of the writer schema throw AvroDecodeError', () => {
  const payload = written(widgetSchema, { ...nulls, name: 'w', parts: [nulls] });

  test('given a payload cut short, or one with bytes after the value, it says so', () => {
    assert.throws(() => decode(payload.subarray(0, payload.length - 3)), AvroDecodeError);
    assert.throws(() => decode(Buffer.concat([payload, Buffer.from([0])])), /trailing data/);
  });

  test('given a union index the writer schema does not have, it names the place', () => {
    assert.throws(() => decode(Buffer.from([0x0a])), /name: no union branch of index 5/);
  });

  test('given a string or a block longer than the payload, it throws before building anything', () => {
    assert.throws(() => decode(Buffer.from([0x02, 0xfe, 0xff, 0xff, 0xff, 0x0f])), /run past the end of the payload/);
    const block = Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0xfe, 0xff, 0xff, 0xff, 0x0f]);
    assert.throws(() => decode(block), /larger than the payload/);
  });
});
