import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cmpQuantity, type Quantity, type QuantityFormat } from './quantity.ts';
import { quantityString } from './quantity-format.ts';
import { milliValueOf, parseQuantity, QuantityError, tryParseQuantity } from './quantity-parse.ts';

const dec = (mantissa: bigint, scale: number, format: QuantityFormat): Quantity => ({
  mantissa,
  scale,
  format,
  infDec: true,
});

/** TestQuantityParse's table: text, then decQuantity(mantissa, exponent, format). */
const PARSED: readonly (readonly [string, bigint, number, QuantityFormat])[] = [
  ...(['0', '0n', '0u', '0m', '0k', '0M', '0G', '0T'] as const).map((t) => [t, 0n, 0, 'DecimalSI'] as const),
  ...(['0Ki', '0Mi', '0Gi', '0Ti'] as const).map((t) => [t, 0n, 0, 'BinarySI'] as const),
  ['1', 1n, 0, 'DecimalSI'],
  ['1Ki', 1024n, 0, 'BinarySI'],
  ['8Ki', 8n * 1024n, 0, 'BinarySI'],
  ['7Mi', 7n * 2n ** 20n, 0, 'BinarySI'],
  ['6Gi', 6n * 2n ** 30n, 0, 'BinarySI'],
  ['5Ti', 5n * 2n ** 40n, 0, 'BinarySI'],
  ['4Pi', 4n * 2n ** 50n, 0, 'BinarySI'],
  ['3Ei', 3n * 2n ** 60n, 0, 'BinarySI'],
  ['10Ti', 10n * 2n ** 40n, 0, 'BinarySI'],
  ['100Ti', 100n * 2n ** 40n, 0, 'BinarySI'],
  ['5n', 5n, -9, 'DecimalSI'],
  ['4u', 4n, -6, 'DecimalSI'],
  ['3m', 3n, -3, 'DecimalSI'],
  ['9', 9n, 0, 'DecimalSI'],
  ['8k', 8n, 3, 'DecimalSI'],
  ['50k', 5n, 4, 'DecimalSI'],
  ['7M', 7n, 6, 'DecimalSI'],
  ['6G', 6n, 9, 'DecimalSI'],
  ['5T', 5n, 12, 'DecimalSI'],
  ['40T', 4n, 13, 'DecimalSI'],
  ['300T', 3n, 14, 'DecimalSI'],
  ['2P', 2n, 15, 'DecimalSI'],
  ['1E', 1n, 18, 'DecimalSI'],
  ['1E-3', 1n, -3, 'DecimalExponent'],
  ['1e3', 1n, 3, 'DecimalExponent'],
  ['1E6', 1n, 6, 'DecimalExponent'],
  ['1e9', 1n, 9, 'DecimalExponent'],
  ['1E12', 1n, 12, 'DecimalExponent'],
  ['1e15', 1n, 15, 'DecimalExponent'],
  ['1E18', 1n, 18, 'DecimalExponent'],
  ['1e14', 1n, 14, 'DecimalExponent'],
  ['1e13', 1n, 13, 'DecimalExponent'],
  ['100.035k', 100035n, 0, 'DecimalSI'],
  ['0.001', 1n, -3, 'DecimalSI'],
  ['0.0005k', 5n, -1, 'DecimalSI'],
  ['0.005', 5n, -3, 'DecimalSI'],
  ['0.05', 5n, -2, 'DecimalSI'],
  ['0.5', 5n, -1, 'DecimalSI'],
  ['0.00050k', 5n, -1, 'DecimalSI'],
  ['0.00500', 5n, -3, 'DecimalSI'],
  ['0.05000', 5n, -2, 'DecimalSI'],
  ['0.50000', 5n, -1, 'DecimalSI'],
  ['0.5e0', 5n, -1, 'DecimalExponent'],
  ['0.5e-1', 5n, -2, 'DecimalExponent'],
  ['0.5e-2', 5n, -3, 'DecimalExponent'],
  ['10.035M', 10035n, 3, 'DecimalSI'],
  ['1.2e3', 12n, 2, 'DecimalExponent'],
  ['1.3E+6', 13n, 5, 'DecimalExponent'],
  ['1.40e9', 14n, 8, 'DecimalExponent'],
  ['1.53E12', 153n, 10, 'DecimalExponent'],
  ['1.6e15', 16n, 14, 'DecimalExponent'],
  ['1.7E18', 17n, 17, 'DecimalExponent'],
  ['9.01', 901n, -2, 'DecimalSI'],
  ['8.1k', 81n, 2, 'DecimalSI'],
  ['7.123456M', 7123456n, 0, 'DecimalSI'],
  ['6.987654321G', 6987654321n, 0, 'DecimalSI'],
  ['5.444T', 5444n, 9, 'DecimalSI'],
  ['40.1T', 401n, 11, 'DecimalSI'],
  ['300.2T', 3002n, 11, 'DecimalSI'],
  ['2.5P', 25n, 14, 'DecimalSI'],
  ['1.01E', 101n, 16, 'DecimalSI'],
  ['3.001n', 4n, -9, 'DecimalSI'],
  ['1.1E-9', 2n, -9, 'DecimalExponent'],
  ['0.0000000001', 1n, -9, 'DecimalSI'],
  ['0.0000000005', 1n, -9, 'DecimalSI'],
  ['0.00000000050', 1n, -9, 'DecimalSI'],
  ['0.5e-9', 1n, -9, 'DecimalExponent'],
  ['0.9n', 1n, -9, 'DecimalSI'],
  ['0.00000012345', 124n, -9, 'DecimalSI'],
  ['0.00000012354', 124n, -9, 'DecimalSI'],
  ['9Ei', 2n ** 63n - 1n, 0, 'BinarySI'],
  ['9223372036854775807Ki', 2n ** 63n - 1n, 0, 'BinarySI'],
  ['12E', 12n, 18, 'DecimalSI'],
  ['100.035Ki', 10243584n, -2, 'BinarySI'],
  ['0.5Mi', 524288n, 0, 'BinarySI'],
  ['0.05Gi', 536870912n, -1, 'BinarySI'],
  ['0.025Ti', 274877906944n, -1, 'BinarySI'],
  ['0.000000000001Ki', 2n, -9, 'DecimalSI'],
  ['.001', 1n, -3, 'DecimalSI'],
  ['.0001k', 100n, -3, 'DecimalSI'],
  ['1.', 1n, 0, 'DecimalSI'],
  ['1.G', 1n, 9, 'DecimalSI'],
];

describe('parseQuantity (TestQuantityParse)', () => {
  for (const [text, mantissa, scale, format] of PARSED) {
    it(`given ${text}, then ${mantissa}e${scale} ${format}; with - negated, with + the same`, () => {
      for (const [prefix, sign] of [
        ['', 1n],
        ['-', -1n],
        ['+', 1n],
      ] as const) {
        const q = parseQuantity(prefix + text);
        assert.equal(cmpQuantity(q, dec(sign * mantissa, scale, format)), 0, `${prefix}${text}: ${quantityString(q)}`);
        assert.equal(q.format, format, prefix + text);
      }
    });
  }
});

describe('parseQuantity errors (ErrFormatWrong, ErrNumeric, ErrSuffix)', () => {
  const cases: readonly [string, string][] = [
    ['', QuantityError.formatWrong],
    ...['1.1.M', '1+1.0M', '0.1am', 'aoeu', 'Non-Numeric', ' 1', '1 '].map((t): [string, string] => [
      t,
      QuantityError.formatWrong,
    ]),
    ...['0.1mi', '.5i', '1i', '-3.01i', '-3.01e-', '1Ee3', '1e99999999999999999999'].map((t): [string, string] => [
      t,
      QuantityError.suffix,
    ]),
    ['.e-10', QuantityError.numeric],
    ['Pi', QuantityError.numeric],
  ];
  for (const [text, message] of cases) {
    it(`given ${JSON.stringify(text)}, then "${message}"`, () => {
      assert.throws(() => parseQuantity(text), { name: 'QuantityError', message });
      assert.equal(tryParseQuantity(text), undefined);
    });
  }
  it("given upstream's messages, then they are the same text", () => {
    assert.equal(
      QuantityError.formatWrong,
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
    assert.equal(QuantityError.suffix, "unable to parse quantity's suffix");
  });
});

describe('parseQuantity quirks kept from upstream', () => {
  const cases: readonly [string, string, QuantityFormat][] = [
    ['.', '0', 'DecimalSI'],
    ['-', '0', 'DecimalSI'],
    ['Ki', '0', 'BinarySI'],
    ['.Ti', '0', 'BinarySI'],
    ['e3', '0', 'DecimalExponent'],
    ['-000', '0', 'DecimalSI'],
    ['1e4294967296', '1e4294967296', 'DecimalExponent'],
  ];
  for (const [text, string, format] of cases) {
    it(`given ${text}, then it parses as ${string} ${format}`, () => {
      const q = parseQuantity(text);
      assert.equal(quantityString(q), string);
      assert.equal(q.format, format);
    });
  }
  it('given an exponent past int32, then it wraps as upstream cuts it (1e4294967296 is 1)', () => {
    assert.equal(cmpQuantity(parseQuantity('1e4294967296'), parseQuantity('1')), 0);
    assert.equal(quantityString(parseQuantity('12345678901234567890e4294967299')), '12345678901234567890e3');
    assert.equal(quantityString(parseQuantity('1.5e-2147483648')), '150e2147483646');
  });
  it('given an exponent far below nano, then it rounds up to 1n at once (upstream computes 10^2147483638)', () =>
    assert.equal(quantityString(parseQuantity('1e-2147483647')), '1e-9'));
  it('given the int64 path, then an int64Amount; given more than 18 digits or below nano, then an inf.Dec', () => {
    assert.equal(parseQuantity('999999999999999999').infDec, false);
    assert.equal(parseQuantity('9223372036854775807').infDec, true);
    assert.equal(parseQuantity('1.5Gi').infDec, true);
    assert.equal(parseQuantity('0.1n').infDec, true);
    assert.deepEqual([parseQuantity('10Ti').infDec, parseQuantity('100Ti').infDec], [false, true]);
    assert.deepEqual([parseQuantity('99999999999Ki').infDec, parseQuantity('999999999999Ki').infDec], [false, true]);
  });
});

describe('resource.Quantity MilliValue (node allocatable CPU)', () => {
  const cases = [
    ['100m', 100],
    ['2', 2000],
    ['1.5', 1500],
    ['0.1', 100],
    ['4k', 4_000_000],
    ['1Ki', 1_024_000],
    ['2e3', 2_000_000],
    ['1n', 1],
    ['0', 0],
  ] as const;
  for (const [text, want] of cases) it(`given ${text}, then ${want}`, () => assert.equal(milliValueOf(text), want));
  it('given text that is no quantity, or one out of range, then undefined', () => {
    assert.equal(milliValueOf('lots'), undefined);
    assert.equal(milliValueOf('1e2000000000'), undefined);
  });
});
