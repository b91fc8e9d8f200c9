import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addQuantity,
  cmpQuantity,
  isZeroQuantity,
  milliQuantity,
  milliValue,
  negQuantity,
  quantityOf,
  subQuantity,
  value,
  type Quantity,
  type QuantityFormat,
} from './quantity.ts';
import { quantityString } from './quantity-format.ts';
import { parseQuantity } from './quantity-parse.ts';

const q = (text: string): Quantity => parseQuantity(text);
const int = (mantissa: bigint, scale: number, format: QuantityFormat = 'DecimalSI'): Quantity => ({
  mantissa,
  scale,
  format,
  infDec: false,
});
const dec = (mantissa: bigint, scale: number, format: QuantityFormat = 'DecimalSI'): Quantity => ({
  ...int(mantissa, scale, format),
  infDec: true,
});
const MAX = 2n ** 63n - 1n;
const MIN = -(2n ** 63n);
const E18 = 10n ** 18n;

describe('cmpQuantity (TestQuantityCmp, TestQuantityCmpInt64AndDec)', () => {
  const parsed: readonly [string, string, number][] = [
    ['0', '0', 0],
    ['100m', '50m', 1],
    ['50m', '100m', -1],
    ['10000T', '100Gi', 1],
  ];
  for (const [x, y, expect] of parsed)
    it(`given ${x} and ${y}, then ${expect}`, () => assert.equal(cmpQuantity(q(x), q(y)), expect));
  const amounts: readonly [bigint, number, bigint, number, number][] = [
    [901n, -2, 901n, -2, 0],
    [90n, -1, 901n, -2, -1],
    [901n, -2, 900n, -2, 1],
    [0n, 1, 0n, -1, 0],
    [800n, -3, 1n, 0, -1],
    [800n, -3, 79n, -2, 1],
    [MAX, 0, 1n, -1, 1],
    [MAX, 1, 1n, 1, 1],
    [MAX, 1, 0n, 1, 1],
    [MAX, -16, 1n, 3, -1],
    [MIN, 0, 0n, 0, -1],
    [MIN, -18, -1n, 0, -1],
    [MIN, -19, -1n, 0, 1],
    [E18, -17, 1n, 1, 0],
    [E18, -17, -10n, 0, 1],
    [-E18, -17, -10n, 0, 0],
    [E18, -17, 1n, 0, 1],
    [E18 + 1n, -17, 1n, 1, 1],
    [E18 - 1n, -17, 1n, 1, -1],
  ];
  for (const [am, as, bm, bs, expect] of amounts) {
    it(`given ${am}e${as} and ${bm}e${bs}, then ${expect} (and the inverse), whatever the representation`, () => {
      for (const [x, y] of [
        [int(am, as), int(bm, bs)],
        [dec(am, as), int(bm, bs)],
        [int(am, as), dec(bm, bs)],
      ]) {
        assert.equal(cmpQuantity(x!, y!), expect);
        assert.equal(cmpQuantity(y!, x!), 0 - expect);
      }
    });
  }
});

describe('addQuantity and subQuantity (TestAdd, TestSub, Add/SubZeroPreservesSuffix)', () => {
  const sums: readonly [Quantity, Quantity, Quantity, Quantity][] = [
    [dec(10n, 0), dec(1n, 1), dec(20n, 0), dec(0n, 0)],
    [dec(10n, 0), dec(1n, 0, 'BinarySI'), dec(11n, 0), dec(9n, 0)],
    [dec(10n, 0, 'BinarySI'), dec(1n, 0), dec(11n, 0, 'BinarySI'), dec(9n, 0, 'BinarySI')],
    [int(0n, 0), dec(50n, 0), dec(50n, 0), dec(-50n, 0)],
    [dec(50n, 0), int(0n, 0), dec(50n, 0), dec(50n, 0)],
    [int(0n, 0), int(0n, 0), dec(0n, 0), dec(0n, 0)],
  ];
  for (const [a, b, total, difference] of sums) {
    const [x, y, sum, diff] = [a, b, total, difference].map(quantityString);
    it(`given ${x} and ${y}, then the sum ${sum} (in its format) and the difference ${diff}`, () => {
      assert.equal(cmpQuantity(addQuantity(a, b), total), 0);
      assert.equal(cmpQuantity(subQuantity(a, b), difference), 0);
      assert.equal(addQuantity(a, b).format, total.format);
    });
  }
  for (const text of ['100m', '1Gi']) {
    it(`given ${text} and zero in either order, then ${text}: the suffix kept (zero takes the other's format)`, () => {
      assert.equal(quantityString(addQuantity(q(text), q('0'))), text);
      assert.equal(quantityString(addQuantity(q('0'), q(text))), text);
      assert.equal(quantityString(subQuantity(q(text), q('0'))), text);
      assert.equal(quantityString(subQuantity(q('0'), q(text))), quantityString(negQuantity(q(text))));
    });
  }
  it("given a non-zero receiver, then the receiver's format: 1Ki + 1024 is 2Ki, 1024 + 1Ki is 2048", () => {
    assert.equal(quantityString(addQuantity(q('1Ki'), q('1024'))), '2Ki');
    assert.equal(quantityString(addQuantity(q('1024'), q('1Ki'))), '2048');
    assert.equal(quantityString(subQuantity(q('3Ki'), q('1024'))), '2Ki');
  });
  it('given a parsed text kept as written, then the sum drops it and is canonical', () =>
    assert.equal(quantityString(addQuantity(q('+1k'), q('1'))), '1001'));
  it('given int64 amounts whose sum overflows, then an exact inf.Dec sum; else an int64 amount', () => {
    const sum = addQuantity(quantityOf(MAX, 'DecimalSI'), quantityOf(1, 'DecimalSI'));
    assert.deepEqual([sum.infDec, value(sum)], [true, MAX + 1n]);
    assert.equal(addQuantity(q('1E'), q('1n')).infDec, true);
    assert.equal(addQuantity(q('1'), q('1n')).infDec, false);
    assert.equal(addQuantity(quantityOf(MAX, 'DecimalSI'), int(0n, -9)).infDec, false);
    assert.equal(subQuantity(int(0n, -9), quantityOf(MAX, 'DecimalSI')).infDec, false);
  });
  it('given many scaled amounts added then subtracted, then zero (TestAddSubRoundTrip)', () => {
    const amounts = [-10, -3, 0, 4, 10].flatMap((s) => [MAX, 12345n, 7n].map((m) => int(m, s)));
    let total = int(0n, 0);
    for (const a of amounts) total = addQuantity(total, a);
    for (const a of amounts) total = subQuantity(total, a);
    assert.equal(isZeroQuantity(total), true);
  });
});

describe('negQuantity (TestQuantityNeg, TestNeg)', () => {
  it('given 9.01 either way held, then -9010m, the source unchanged', () => {
    for (const source of [int(901n, -2), dec(901n, -2)]) {
      assert.equal(quantityString(negQuantity(source)), '-9010m');
      assert.equal(source.mantissa, 901n);
    }
  });
  it('given 10, -10 and 0 (BinarySI), then -10, 10 and 0 in the same format', () => {
    for (const [m, expect] of [
      [10n, -10n],
      [-10n, 10n],
      [0n, 0n],
    ] as const) {
      const n = negQuantity(int(m, 0, 'BinarySI'));
      assert.deepEqual([cmpQuantity(n, int(expect, 0)), n.format], [0, 'BinarySI']);
    }
  });
});

describe('value and milliValue (TestScaledValue, Value, MilliValue)', () => {
  const scaled: readonly [number, bigint, bigint][] = [
    [-9, 1n, 1n],
    [-6, 1n, 1n],
    [-3, 1n, 1n],
    [0, 1n, 1000n],
    [2, 100n, 100000n],
  ];
  for (const [scale, units, millis] of scaled) {
    it(`given 1e${scale}, then ${units} and ${millis} thousandths (rounded up)`, () =>
      assert.deepEqual([value(int(1n, scale)), milliValue(int(1n, scale))], [units, millis]));
  }
  it('given an int64 amount, then a negative value rounds away from zero: -1.5 is -2', () =>
    assert.deepEqual([value(q('-1.5')), milliValue(q('-1.5u'))], [-2n, -1n]));
  it('given an inf.Dec, then a negative value rounds to the truncated quotient plus one, as upstream', () => {
    assert.deepEqual([value(q('-1.50000000000000000000')), value(q('-0.0000000001'))], [0n, 1n]);
    assert.equal(milliValue(q('-1.5n')), 1n);
    assert.equal(milliValue(q('-1.50000000000000000000')), -1500n);
  });
  it('given an inf.Dec with 19 digits or more to drop, then the ceiling (the big.Int path)', () =>
    assert.equal(value(subQuantity(q('0.0e-31'), q('50770u'))), 0n));
  it('given -2.5Ki, then -2560 and -2560000', () =>
    assert.deepEqual([value(q('-2.5Ki')), milliValue(q('-2.5Ki'))], [-2560n, -2560000n]));
});

describe('quantityOf and milliQuantity (NewQuantity, NewMilliQuantity)', () => {
  it('given an int64, then n units or thousandths, an int64 amount', () => {
    assert.deepEqual(quantityOf(5, 'DecimalSI'), int(5n, 0));
    assert.deepEqual(milliQuantity(5n, 'BinarySI'), int(5n, -3, 'BinarySI'));
  });
  it('given a number out of int64 or not an integer, then a RangeError', () => {
    assert.throws(() => quantityOf(MAX + 1n, 'DecimalSI'), RangeError);
    assert.throws(() => milliQuantity(1.5, 'DecimalSI'), RangeError);
  });
});
