/*
 * resource.ParseQuantity (k8s.io/apimachinery pkg/api/resource quantity.go, suffix.go): the scanner, the suffixes, the
 * int64 fast path (which keeps the text as the cached string when it is already canonical) and the inf.Dec path
 * (rounding up to a nano, BinarySI capped at 2^63-1 and below one written as DecimalSI), with upstream's errors.
 */
import { cmpQuantity, fitsInt64, milliValue, pow10, type Quantity, type QuantityFormat } from './quantity.ts';

const SPLIT_RE = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';

/** QuantityError is one of ParseQuantity's errors: ErrFormatWrong, ErrNumeric or ErrSuffix, with their messages. */
export class QuantityError extends Error {
  /** formatWrong is ErrFormatWrong. */
  static readonly formatWrong = `quantities must match the regular expression '${SPLIT_RE}'`;
  /** numeric is ErrNumeric. */
  static readonly numeric = 'unable to parse numeric part of quantity';
  /** suffix is ErrSuffix. */
  static readonly suffix = "unable to parse quantity's suffix";
  override readonly name = 'QuantityError';
}

/** SCAN is parseQuantityString's grammar: sign, leading zeros, whole digits, fraction, suffix. */
const SCAN = /^([+-]?)(0*)([0-9]*)(?:\.([0-9]*))?([eEinumkKMGTP]*[-+]?[0-9]*)$/;

type Scanned = { positive: boolean; digits: boolean; num: string; denom: string; suffix: string };
type Suffix = { base: 2 | 10; exponent: number; format: QuantityFormat };

const DECIMAL: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const NANO = -9;
const MAX_ALLOWED = 2n ** 63n - 1n;

/** parseQuantity is resource.ParseQuantity: the quantity text writes, or a QuantityError. */
export function parseQuantity(text: string): Quantity {
  if (text === '') throw new QuantityError(QuantityError.formatWrong);
  if (text === '0') return { mantissa: 0n, scale: 0, format: 'DecimalSI', infDec: false, text };
  const scanned = scan(text);
  const suffix = interpret(scanned.suffix);
  if (suffix === undefined) throw new QuantityError(QuantityError.suffix);
  return int64Path(text, scanned, suffix) ?? infDecPath(scanned, suffix);
}

/** tryParseQuantity is parseQuantity, undefined for malformed text. */
export function tryParseQuantity(text: string): Quantity | undefined {
  try {
    return parseQuantity(text);
  } catch (e) {
    if (e instanceof QuantityError) return undefined;
    throw e;
  }
}

/** ONE_NANO is the smallest quantity: readQuantity compares with it to find one too large for the arithmetic. */
const ONE_NANO = parseQuantity('1n');

/**
 * readQuantity is the quantity a JSON value writes: the API's string, or a bare number (Quantity's UnmarshalJSON takes
 * both). Undefined when malformed, or too large for the arithmetic (quantity.ts' power-of-ten bound: comparing it
 * with a nano throws), which a reader treats alike: a record from a topic the API would not have served.
 */
export function readQuantity(json: unknown): Quantity | undefined {
  const written = typeof json === 'string' ? json : typeof json === 'number' ? String(json) : undefined;
  const q = written === undefined ? undefined : tryParseQuantity(written);
  if (q === undefined) return undefined;
  try {
    cmpQuantity(q, ONE_NANO);
    return q;
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}

/**
 * milliValueOf is the MilliValue of a quantity's text as a number (a node's allocatable CPU: `100m`, `2`, `1Ki`);
 * undefined for malformed text, or a quantity out of range (MAX_POW10).
 */
export function milliValueOf(text: string): number | undefined {
  const q = tryParseQuantity(text);
  try {
    return q === undefined ? undefined : Number(milliValue(q));
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}

/** scan is parseQuantityString: the whole part loses its leading zeros ("0" when none is left). */
function scan(text: string): Scanned {
  const m = SCAN.exec(text);
  if (m === null) throw new QuantityError(QuantityError.formatWrong);
  const [, sign, zeros = '', whole = '', denom = '', suffix = ''] = m;
  const digits = zeros !== '' || whole !== '' || denom !== '';
  return { positive: sign !== '-', digits, num: whole === '' ? '0' : whole, denom, suffix };
}

/** interpret is the suffixer's interpret: a decimal or binary SI suffix, or e/E and an int64 (cut to an int32). */
function interpret(suffix: string): Suffix | undefined {
  const decimal = DECIMAL[suffix];
  if (decimal !== undefined) return { base: 10, exponent: decimal, format: 'DecimalSI' };
  const binary = BINARY[suffix];
  if (binary !== undefined) return { base: 2, exponent: binary, format: 'BinarySI' };
  if (!/^[eE][+-]?[0-9]+$/.test(suffix)) return undefined;
  const exponent = BigInt(suffix.slice(1));
  if (!fitsInt64(exponent)) return undefined;
  return { base: 10, exponent: Number(BigInt.asIntN(32, exponent)), format: 'DecimalExponent' };
}

/**
 * int64Path is ParseQuantity's fast path: at most 18 digits (fewer for binary suffixes, so the result is an int64),
 * no fraction on a binary suffix, and a scale (an int32: it wraps) of at least a nano. The text becomes the cached
 * string when already canonical: for BinarySI when the number is not a multiple of 8, else when the scale is a
 * multiple of 3 and the digits neither start with 0 nor end with 000 (so "+1k" and "1.500" stay as written).
 */
function int64Path(text: string, s: Scanned, suffix: Suffix): Quantity | undefined {
  const binary = suffix.base === 2;
  const precision = binary
    ? s.denom === ''
      ? 14 - s.num.length - Math.trunc((suffix.exponent * 3) / 10)
      : -1
    : 18 - s.num.length - s.denom.length;
  const scale = ((binary ? 0 : suffix.exponent) - s.denom.length) | 0;
  if (precision < 0 || scale < NANO) return undefined;
  const shifted = s.num + s.denom;
  const magnitude = BigInt(shifted) << BigInt(binary ? suffix.exponent : 0);
  const q: Quantity = { mantissa: s.positive ? magnitude : -magnitude, scale, format: suffix.format, infDec: false };
  const canonical = binary
    ? (BigInt(shifted) & 7n) !== 0n
    : scale % 3 === 0 && !shifted.endsWith('000') && !shifted.startsWith('0');
  return canonical ? { ...q, text } : q;
}

/**
 * infDecPath is ParseQuantity's inf.Dec path: the exact value, its magnitude rounded up to a nano when finer,
 * BinarySI (whose scale is never positive here) capped at 2^63-1 and, between zero and one, written as DecimalSI. No
 * cached string. Upstream rescales every non-zero value to nanos; the scale kept here is coarser, which changes
 * nothing but where upstream's ScaledValue wraps past int64, which is not mirrored.
 */
function infDecPath(s: Scanned, suffix: Suffix): Quantity {
  if (!s.digits) throw new QuantityError(QuantityError.numeric);
  let magnitude = BigInt(s.num + s.denom);
  let scale = -s.denom.length;
  if (suffix.base === 10) scale += suffix.exponent;
  else magnitude <<= BigInt(suffix.exponent);
  if (magnitude !== 0n && scale < NANO) [magnitude, scale] = [roundUpToNano(magnitude, scale), NANO];
  let format = suffix.format;
  if (format === 'BinarySI' && magnitude > MAX_ALLOWED * pow10(-scale)) [magnitude, scale] = [MAX_ALLOWED, 0];
  if (format === 'BinarySI' && magnitude !== 0n && magnitude < pow10(-scale)) format = 'DecimalSI';
  return { mantissa: s.positive ? magnitude : -magnitude, scale, format, infDec: true };
}

/** roundUpToNano is inf.Dec's Round(nano, RoundUp) of magnitude × 10^scale, for a scale below nano: the nanos. */
function roundUpToNano(magnitude: bigint, scale: number): bigint {
  const shift = NANO - scale;
  if (shift > magnitude.toString().length) return 1n;
  const divisor = pow10(shift);
  const nanos = magnitude / divisor;
  return nanos * divisor === magnitude ? nanos : nanos + 1n;
}
