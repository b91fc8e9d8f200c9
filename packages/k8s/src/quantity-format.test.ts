import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  milliQuantity,
  milliValue,
  negQuantity,
  quantityOf,
  value,
  type Quantity,
  type QuantityFormat,
} from './quantity.ts';
import { quantityString } from './quantity-format.ts';
import { parseQuantity } from './quantity-parse.ts';

const dec = (mantissa: bigint, scale: number, format: QuantityFormat): Quantity => ({
  mantissa,
  scale,
  format,
  infDec: true,
});

/** TestQuantityString's table: decQuantity(mantissa, exponent, format), its String, and another text for it. */
const STRINGS: readonly [bigint, number, QuantityFormat, string, string][] = [
  [1024n * 1024n * 1024n, 0, 'BinarySI', '1Gi', '1024Mi'],
  [300n * 1024n * 1024n, 0, 'BinarySI', '300Mi', '307200Ki'],
  [6n * 1024n, 0, 'BinarySI', '6Ki', ''],
  [1001n * 1024n * 1024n * 1024n, 0, 'BinarySI', '1001Gi', '1025024Mi'],
  [1024n * 1024n * 1024n * 1024n, 0, 'BinarySI', '1Ti', '1024Gi'],
  [5n, 0, 'BinarySI', '5', '5000m'],
  [500n, -3, 'BinarySI', '500m', '0.5'],
  [1n, 9, 'DecimalSI', '1G', '1000M'],
  [1000n, 6, 'DecimalSI', '1G', '0.001T'],
  [1000000n, 3, 'DecimalSI', '1G', ''],
  [1000000000n, 0, 'DecimalSI', '1G', ''],
  [1n, -3, 'DecimalSI', '1m', '1000u'],
  [80n, -3, 'DecimalSI', '80m', ''],
  [1080n, -3, 'DecimalSI', '1080m', '1.08'],
  [108n, -2, 'DecimalSI', '1080m', '1080000000n'],
  [10800n, -4, 'DecimalSI', '1080m', ''],
  [300n, 6, 'DecimalSI', '300M', ''],
  [1n, 12, 'DecimalSI', '1T', ''],
  [1234567n, 6, 'DecimalSI', '1234567M', ''],
  [1234567n, -3, 'BinarySI', '1234567m', ''],
  [3n, 3, 'DecimalSI', '3k', ''],
  [1025n, 0, 'BinarySI', '1025', ''],
  [0n, 0, 'DecimalSI', '0', ''],
  [0n, 0, 'BinarySI', '0', ''],
  [1n, 9, 'DecimalExponent', '1e9', '.001e12'],
  [1n, -3, 'DecimalExponent', '1e-3', '0.001e0'],
  [1n, -9, 'DecimalExponent', '1e-9', '1000e-12'],
  [80n, -3, 'DecimalExponent', '80e-3', ''],
  [300n, 6, 'DecimalExponent', '300e6', ''],
  [1n, 12, 'DecimalExponent', '1e12', ''],
  [1n, 3, 'DecimalExponent', '1e3', ''],
  [3n, 3, 'DecimalExponent', '3e3', ''],
  [0n, 0, 'DecimalExponent', '0', '00'],
  [1n, -9, 'DecimalSI', '1n', ''],
  [80n, -9, 'DecimalSI', '80n', ''],
  [1080n, -9, 'DecimalSI', '1080n', ''],
  [108n, -8, 'DecimalSI', '1080n', ''],
  [10800n, -10, 'DecimalSI', '1080n', ''],
  [1n, -6, 'DecimalSI', '1u', ''],
  [80n, -6, 'DecimalSI', '80u', ''],
  [1080n, -6, 'DecimalSI', '1080u', ''],
];

describe('quantityString (TestQuantityString)', () => {
  for (const [mantissa, scale, format, expect, alternate] of STRINGS) {
    it(`given ${mantissa}e${scale} ${format}, then ${expect}, parsed back with that text cached`, () => {
      assert.equal(quantityString(dec(mantissa, scale, format)), expect);
      if (mantissa !== 0n) assert.equal(quantityString(dec(-mantissa, scale, format)), `-${expect}`);
      assert.equal(parseQuantity(expect).text, expect);
      if (alternate === '') return;
      assert.equal(parseQuantity(alternate).text, undefined);
      assert.equal(quantityString(parseQuantity(alternate)), expect);
    });
  }
});

/** TestQuantityParseEmit's table and more, each also negated; checked against upstream's String. */
const EMITTED: readonly [string, string][] = [
  ['1Ki', '1Ki'],
  ['1Mi', '1Mi'],
  ['1Gi', '1Gi'],
  ['1024Mi', '1Gi'],
  ['1000M', '1G'],
  ['.001Ki', '1024m'],
  ['.000001Ki', '1024u'],
  ['.000000001Ki', '1024n'],
  ['.000000000001Ki', '2n'],
  ['1.5Gi', '1536Mi'],
  ['1.5Ki', '1536'],
  ['1.1Ki', '1126400m'],
  ['1023Ki', '1023Ki'],
  ['1024Ki', '1Mi'],
  ['4096Pi', '4Ei'],
  ['8Ei', '9223372036854775807'],
  ['0.1n', '1n'],
  ['1.5', '1500m'],
  ['1000', '1k'],
  ['1000e18', '1e21'],
  ['0.000001e-3', '1e-9'],
  ['1000E', '1'],
  ['1.000', '1'],
];

describe('quantityString of parsed text (TestQuantityParseEmit)', () => {
  for (const [text, expect] of EMITTED) {
    it(`given ${text}, then ${expect}; given -${text}, then -${expect}`, () => {
      assert.equal(quantityString(parseQuantity(text)), expect);
      assert.equal(quantityString(parseQuantity(`-${text}`)), `-${expect}`);
    });
  }
  it('given text kept as written (+1k, 1.500, 1.100k, 1e21), then String is that text until an operation', () => {
    for (const [text, canonical] of [
      ['+1k', '1k'],
      ['1.500', '1500m'],
      ['1.100k', '1100'],
      ['1e21', '1e21'],
    ]) {
      assert.equal(quantityString(parseQuantity(text!)), text);
      assert.equal(quantityString(negQuantity(negQuantity(parseQuantity(text!)))), canonical);
    }
  });
});

describe('quantityString of built quantities (TestNewSet, TestMilliNewSet, TestNewScaledSet)', () => {
  const counts: readonly [number, QuantityFormat, string][] = [
    [1, 'DecimalSI', '1'],
    [1000, 'DecimalSI', '1k'],
    [1234000, 'DecimalSI', '1234k'],
    [1024, 'BinarySI', '1Ki'],
    [1024 * 1024, 'BinarySI', '1Mi'],
  ];
  for (const [n, format, expect] of counts) {
    it(`given quantityOf(${n}, ${format}), then ${expect}, whose value is ${n}`, () => {
      assert.equal(quantityString(quantityOf(n, format)), expect);
      assert.equal(value(parseQuantity(expect)), BigInt(n));
    });
  }
  const millis: readonly [number, QuantityFormat, string, boolean][] = [
    [1, 'DecimalSI', '1m', true],
    [1000, 'DecimalSI', '1', true],
    [1234000, 'DecimalSI', '1234', true],
    [1024, 'BinarySI', '1024m', false],
    [1024 * 1024, 'BinarySI', '1048576m', false],
  ];
  for (const [n, format, expect, exact] of millis) {
    it(`given milliQuantity(${n}, ${format}), then ${expect}`, () => {
      assert.equal(quantityString(milliQuantity(n, format)), expect);
      if (exact) assert.equal(milliValue(parseQuantity(expect)), BigInt(n));
    });
  }
  const scaled: readonly [bigint, number, string][] = [
    [1n, -9, '1n'],
    [1000n, -9, '1u'],
    [1n, -6, '1u'],
    [1000n, -6, '1m'],
    [1n, -3, '1m'],
    [1000n, -3, '1'],
    [0n, -9, '0'],
    [0n, -3, '0'],
  ];
  for (const [mantissa, scale, expect] of scaled) {
    it(`given ${mantissa}e${scale} as an int64 amount, then ${expect}`, () =>
      assert.equal(quantityString({ mantissa, scale, format: 'DecimalSI', infDec: false }), expect));
  }
  it('given a BinarySI value past Ei (a sum), then no suffix, as upstream finds none: 2^70 is written 1', () =>
    assert.equal(quantityString(dec(2n ** 70n, 0, 'BinarySI')), '1'));
});
