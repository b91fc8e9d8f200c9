/*
 * resource.Quantity (k8s.io/apimachinery pkg/api/resource quantity.go, amount.go, math.go) as immutable values: the
 * arithmetic, comparison and integer views the quota controller uses. Parsing is in quantity-parse.ts, the canonical
 * string in quantity-format.ts. Every operation is exact (BigInt); where upstream's int64 would overflow (a sum, a
 * ScaledValue past 2^63) upstream wraps, caps at zero or moves to inf.Dec, and only the last is mirrored.
 */

/** QuantityFormat is resource.Format: how a quantity is written (12e6, 12Mi, 12M). */
export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

/**
 * Quantity is resource.Quantity: exactly mantissa × 10^scale (not normalised: 1000m is 1000 × 10^-3, as upstream's
 * int64Amount holds it), the format it is written in, whether upstream holds it as an inf.Dec rather than an
 * int64Amount (ScaledValue rounds negative values differently in the two), and upstream's cached string s (the parsed
 * text, kept when it was already canonical; any arithmetic drops it). Build one with parseQuantity, quantityOf or
 * milliQuantity.
 */
export type Quantity = {
  readonly mantissa: bigint;
  readonly scale: number;
  readonly format: QuantityFormat;
  readonly infDec: boolean;
  readonly text?: string;
};

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** fitsInt64 tells whether n is an int64 value (for this module and quantity-parse.ts). */
export function fitsInt64(n: bigint): boolean {
  return n >= INT64_MIN && n <= INT64_MAX;
}

/**
 * MAX_POW10 bounds the powers of ten the arithmetic builds: text like `1e2000000000` parses (as upstream's does), but
 * no sum, comparison or value of it would end in time, upstream's inf.Dec building the number as this would. Past it
 * pow10 throws a RangeError: the quantity is out of range, and its reader treats it as malformed.
 */
const MAX_POW10 = 4096;

/** pow10 is 10^n for 0 ≤ n ≤ MAX_POW10 (for these quantity modules); a RangeError past it. */
export function pow10(n: number): bigint {
  if (n > MAX_POW10) throw new RangeError(`quantity out of range: a power of ten of ${n} digits`);
  return 10n ** BigInt(n);
}

/** quantityOf is resource.NewQuantity(n, format): n units (an int64: a RangeError otherwise). */
export function quantityOf(n: bigint | number, format: QuantityFormat): Quantity {
  return int64Quantity(BigInt(n), 0, format);
}

/** milliQuantity is resource.NewMilliQuantity(n, format): n thousandths (an int64: a RangeError otherwise). */
export function milliQuantity(n: bigint | number, format: QuantityFormat): Quantity {
  return int64Quantity(BigInt(n), -3, format);
}

/** int64Quantity is an int64Amount of mantissa × 10^scale. */
function int64Quantity(mantissa: bigint, scale: number, format: QuantityFormat): Quantity {
  if (!fitsInt64(mantissa)) throw new RangeError(`${mantissa} is not an int64`);
  return { mantissa, scale, format, infDec: false };
}

/** isZeroQuantity is Quantity.IsZero. */
export function isZeroQuantity(q: Quantity): boolean {
  return q.mantissa === 0n;
}

/** cmpQuantity is Quantity.Cmp: -1, 0 or 1 as a is less than, equal to or greater than b. */
export function cmpQuantity(a: Quantity, b: Quantity): -1 | 0 | 1 {
  const scale = Math.min(a.scale, b.scale);
  const x = at(a, scale);
  const y = at(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** negQuantity is Quantity.Neg on a copy: the same format, no cached string. */
export function negQuantity(q: Quantity): Quantity {
  return { mantissa: -q.mantissa, scale: q.scale, format: q.format, infDec: q.infDec };
}

/** addQuantity is Quantity.Add on a copy of a: a's format, or b's when a is zero; no cached string. */
export function addQuantity(a: Quantity, b: Quantity): Quantity {
  return { ...sum(a, b.mantissa, b.scale, b.infDec), format: isZeroQuantity(a) ? b.format : a.format };
}

/** subQuantity is Quantity.Sub on a copy of a: a's format, or b's when a is zero; no cached string. */
export function subQuantity(a: Quantity, b: Quantity): Quantity {
  return { ...sum(a, -b.mantissa, b.scale, b.infDec), format: isZeroQuantity(a) ? b.format : a.format };
}

type Amount = Pick<Quantity, 'mantissa' | 'scale' | 'infDec'>;

/**
 * sum is a + m × 10^s as upstream computes it: int64Amount.Add while both are int64 amounts and nothing overflows
 * (a zero operand leaves the other's mantissa and scale; else the smaller scale), else inf.Dec's Add (the smaller
 * scale) and the result an inf.Dec.
 */
function sum(a: Amount, m: bigint, s: number, infDec: boolean): Amount {
  if (!a.infDec && !infDec) {
    if (m === 0n) return { mantissa: a.mantissa, scale: a.scale, infDec: false };
    if (a.mantissa === 0n) return { mantissa: m, scale: s, infDec: false };
  }
  const scale = Math.min(a.scale, s);
  const x = at(a, scale);
  const y = m * pow10(s - scale);
  const mantissa = x + y;
  const overflows = !fitsInt64(x) || !fitsInt64(y) || !fitsInt64(mantissa);
  return { mantissa, scale, infDec: a.infDec || infDec || overflows };
}

/** at is q's mantissa at a scale no greater than its own. */
function at(q: Amount, scale: number): bigint {
  return q.mantissa * pow10(q.scale - scale);
}

/** value is Quantity.Value: ScaledValue(0), the value in units rounded up. */
export function value(q: Quantity): bigint {
  return scaledValue(q, 0);
}

/** milliValue is Quantity.MilliValue: ScaledValue(-3), the value in thousandths rounded up. */
export function milliValue(q: Quantity): bigint {
  return scaledValue(q, -3);
}

/**
 * scaledValue is Quantity.ScaledValue: q / 10^scale, rounded up when inexact. Upstream rounds an int64Amount away
 * from zero (negativeScaleInt64) but an inf.Dec, on scaledValue's fast path (a negative value, fewer than 19 digits
 * to drop), to the truncated quotient plus one: -1.5 is -2 or 0 depending on the representation.
 */
function scaledValue(q: Quantity, scale: number): bigint {
  if (q.scale >= scale) return at(q, scale);
  const divisor = pow10(scale - q.scale);
  const quotient = q.mantissa / divisor;
  if (quotient * divisor === q.mantissa || (q.mantissa < 0n && q.infDec && scale - q.scale >= 19)) return quotient;
  return q.mantissa > 0n || q.infDec ? quotient + 1n : quotient - 1n;
}
