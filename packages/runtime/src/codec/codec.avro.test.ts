import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AvroCodec } from './codec.avro.ts';
import { AvroEncodeError } from './encode-state.ts';

const field = (name: string, type: unknown, extra: object = {}): object => ({ name, type, ...extra });
const widget = (...fields: object[]): object => ({
  type: 'record',
  name: 'Widget',
  namespace: 'io.kcmbus.test.v1',
  fields,
});

/** v1 is the schema records were first written with. */
const v1 = widget(field('name', 'string'), field('replicas', ['null', 'int'], { default: null }));
/** v2 adds an optional field with default null: the change DESIGN allows (compatibility BACKWARD, and FORWARD too). */
const v2 = widget(
  field('name', 'string'),
  field('replicas', ['null', 'int'], { default: null }),
  field('zone', ['null', 'string'], { default: null }),
);
/** v3 adds a required field: old records cannot be read with it. */
const v3 = widget(
  field('name', 'string'),
  field('replicas', ['null', 'int'], { default: null }),
  field('zone', 'string'),
);

describe('AvroCodec', () => {
  test('given a value with unwrapped unions, encode then decode with the same schema gives it back, null as absent', () => {
    const codec = new AvroCodec(v2);
    assert.deepEqual(codec.decode(codec.encode({ name: 'w', replicas: 3, zone: null }).payload), {
      name: 'w',
      replicas: 3,
    });
  });

  test('BACKWARD: given a record written with v1, a v2 reader reads it and the added field takes its default (null: absent)', () => {
    const old = new AvroCodec(v1).encode({ name: 'w', replicas: 2 }).payload;
    assert.deepEqual(new AvroCodec(v2).decode(old, v1), { name: 'w', replicas: 2 });
  });

  test('FORWARD: given a record written with v2, a v1 reader reads it and skips the field it does not know', () => {
    const newer = new AvroCodec(v2).encode({ name: 'w', replicas: null, zone: 'eu-1a' }).payload;
    assert.deepEqual(new AvroCodec(v1).decode(newer, v2), { name: 'w' });
  });

  test('given a reader that adds a required field, reading old records fails instead of inventing a value', () => {
    const old = new AvroCodec(v1).encode({ name: 'w', replicas: null }).payload;
    assert.throws(() => new AvroCodec(v3).decode(old, v1), /cannot be read as io\.kcmbus\.test\.v1\.Widget/);
  });

  test('given bytes of another schema and no writer schema, decode fails rather than misreading them', () => {
    const newer = new AvroCodec(v2).encode({ name: 'w', replicas: null, zone: 'eu-1a' }).payload;
    assert.throws(() => new AvroCodec(v1).decode(newer), /trailing data/);
  });

  test('given a value larger than the encode buffer, then a small one, each decodes whole (every result its own bytes)', () => {
    const codec = new AvroCodec(v2);
    const big = codec.encode({ name: 'x'.repeat(200_000), replicas: 1, zone: 'a' }).payload;
    const small = codec.encode({ name: 'w', replicas: 2, zone: null }).payload;
    assert.deepEqual(codec.decode(big), { name: 'x'.repeat(200_000), replicas: 1, zone: 'a' });
    assert.deepEqual(codec.decode(small), { name: 'w', replicas: 2 });
  });

  test('given a value that does not fit, encode throws AvroEncodeError naming each path', () => {
    assert.throws(
      () => new AvroCodec(v2).encode({ name: 7, replicas: 'three', zone: null }),
      (err: unknown) => {
        assert.ok(err instanceof AvroEncodeError);
        assert.deepEqual(err.paths, ['name', 'replicas']);
        return true;
      },
    );
  });
});
