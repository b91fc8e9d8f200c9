import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import avro from 'avsc';
import { BinaryReader } from './binary-reader.ts';
import { BinaryWriter } from './binary-writer.ts';

/** writes is what a fresh writer holds after `write`. */
function writes(write: (w: BinaryWriter) => void): Buffer {
  const writer = new BinaryWriter();
  writer.start();
  write(writer);
  return writer.written();
}

/** reads reads a payload with `read` and checks that it ended at the end of it. */
function reads<T>(payload: Buffer, read: (r: BinaryReader) => T): T {
  const reader = new BinaryReader();
  reader.start(payload);
  const value = read(reader);
  reader.finish();
  return value;
}

const LONGS = [
  0,
  1,
  -1,
  63,
  -64,
  64,
  2 ** 30 - 1,
  2 ** 30,
  -(2 ** 30),
  -(2 ** 30) - 1,
  2 ** 31,
  9223372036,
  -(2 ** 52),
];
const STRINGS = [
  '',
  'a',
  'web-7xk2p',
  'x'.repeat(63),
  'x'.repeat(64),
  'x'.repeat(300),
  'wïdget',
  '日本',
  '😀',
  'a\u0000b',
];

describe('BinaryWriter and BinaryReader: the primitives of Avro binary, as avsc writes them', () => {
  test('given ints and longs on every boundary of the varint and of 32-bit arithmetic, the bytes are the ones avsc writes and read back', () => {
    const long = avro.Type.forSchema('long');
    for (const n of LONGS) {
      assert.deepEqual(
        writes((w) => w.long(n)),
        long.toBuffer(n),
        String(n),
      );
      assert.equal(
        reads(long.toBuffer(n), (r) => r.long()),
        n,
      );
    }
  });

  test('given strings short and long, ASCII or not, the bytes are the ones avsc writes and read back', () => {
    const string = avro.Type.forSchema('string');
    for (const s of STRINGS) {
      assert.deepEqual(
        writes((w) => w.string(s)),
        string.toBuffer(s),
        s,
      );
      assert.equal(
        reads(string.toBuffer(s), (r) => r.string()),
        s,
      );
    }
  });

  test('given doubles and floats, the bytes are the ones avsc writes and read back', () => {
    for (const d of [0, -1.5, Math.PI, 1e300]) {
      assert.deepEqual(
        writes((w) => w.double(d)),
        avro.Type.forSchema('double').toBuffer(d),
      );
      assert.equal(
        reads(avro.Type.forSchema('double').toBuffer(d), (r) => r.double()),
        d,
      );
    }
    assert.deepEqual(
      writes((w) => w.float(1.5)),
      avro.Type.forSchema('float').toBuffer(1.5),
    );
    assert.equal(
      reads(avro.Type.forSchema('float').toBuffer(1.5), (r) => r.float()),
      1.5,
    );
  });

  test('given more than the scratch buffer holds, the writer says it overflowed and writes it whole once grown', () => {
    const writer = new BinaryWriter();
    const big = 'x'.repeat(100_000);
    writer.start();
    writer.string(big);
    assert.equal(writer.overflowed(), true);
    writer.start();
    writer.string(big);
    assert.equal(writer.overflowed(), false);
    assert.equal(
      reads(writer.written(), (r) => r.string()),
      big,
    );
  });
});
