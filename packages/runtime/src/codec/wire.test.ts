import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { frame, unframe, WireFormatError } from './wire.ts';

describe('Confluent wire format', () => {
  test('given schema id 258 and a payload, frame writes 0x00, the id big-endian, then the payload', () => {
    const message = frame(258, Buffer.from([0xca, 0xfe]));
    assert.deepEqual([...message], [0x00, 0x00, 0x00, 0x01, 0x02, 0xca, 0xfe]);
  });

  test('given a framed message, unframe returns the same id and payload (the largest id and an empty payload too)', () => {
    assert.deepEqual(unframe(frame(42, Buffer.from('avro'))), { schemaId: 42, payload: Buffer.from('avro') });
    assert.deepEqual(unframe(frame(0x7fffffff, Buffer.alloc(0))), { schemaId: 0x7fffffff, payload: Buffer.alloc(0) });
  });

  test('given a message that is not Confluent-framed, unframe names the wrong magic byte', () => {
    assert.throws(
      () => unframe(Buffer.from('{"kind":"Pod"}')),
      (err: unknown) => {
        assert.ok(err instanceof WireFormatError);
        assert.match(err.message, /unknown magic byte 0x7b/);
        return true;
      },
    );
  });

  test('given fewer than 5 bytes, unframe says the message is too short', () => {
    assert.throws(
      () => unframe(Buffer.from([0, 0, 0, 1])),
      /message of 4 bytes is shorter than the 5-byte Confluent header/,
    );
  });

  test('given an id Java could not hold, frame refuses it', () => {
    assert.throws(() => frame(-1, Buffer.alloc(0)), RangeError);
    assert.throws(() => frame(2 ** 31, Buffer.alloc(0)), RangeError);
    assert.throws(() => frame(1.5, Buffer.alloc(0)), RangeError);
  });
});
