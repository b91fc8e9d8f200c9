import type { OutgoingRecord } from '@kcm-bus/runtime/bus/index.ts';
import { frame } from '@kcm-bus/runtime/codec/index.ts';

/** Random is a seeded pseudo-random source (mulberry32): a failing fuzz run can be replayed with its seed. */
export type Random = { readonly int: (below: number) => number; readonly bytes: (n: number) => Buffer };

/** seeded returns a Random for the seed. */
export function seeded(seed: number): Random {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (below) => Math.floor(next() * below),
    bytes: (n) => Buffer.from(Array.from({ length: n }, () => Math.floor(next() * 256))),
  };
}

/**
 * FuzzKind names a way a record can be wrong: bytes that are not our wire format, a frame naming a schema the
 * registry does not know, a valid frame whose Avro is cut short, a record near the broker's size limit, and a valid
 * record mutated by the test (absurd fields, a key that does not name its object).
 */
export type FuzzKind = 'random-bytes' | 'wrong-magic' | 'unknown-schema' | 'truncated' | 'huge' | 'absurd';

/**
 * fuzzRecords makes n bad records for a topic from one valid encoded record of it (`valid`, its schema id inside)
 * and valid-but-absurd ones (`absurd`), each keyed under `keyPrefix` so that nothing a test owns is touched.
 */
export function fuzzRecords(
  r: Random,
  n: number,
  valid: Buffer,
  absurd: readonly Buffer[],
  keyPrefix: string,
): { kind: FuzzKind; record: OutgoingRecord }[] {
  const kinds: FuzzKind[] = ['random-bytes', 'wrong-magic', 'unknown-schema', 'truncated', 'huge', 'absurd'];
  return Array.from({ length: n }, (_, i) => {
    const kind = kinds[i % kinds.length]!;
    return { kind, record: { key: `${keyPrefix}/f${i}`, value: value(r, kind, valid, absurd) } };
  });
}

function value(r: Random, kind: FuzzKind, valid: Buffer, absurd: readonly Buffer[]): Buffer {
  switch (kind) {
    case 'random-bytes':
      return r.bytes(r.int(200));
    case 'wrong-magic':
      return Buffer.concat([Buffer.from([1 + r.int(255)]), valid.subarray(1)]);
    case 'unknown-schema':
      return frame(900_000 + r.int(90_000), valid.subarray(5));
    case 'truncated':
      return valid.subarray(0, 5 + r.int(Math.max(1, valid.length - 6)));
    case 'huge':
      return frame(valid.readInt32BE(1), r.bytes(900_000));
    case 'absurd':
      return absurd[r.int(absurd.length)] ?? valid;
  }
}
