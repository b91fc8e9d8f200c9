const QUANTITY = /^([+-]?)(\d*)(?:\.(\d*))?(?:(Ki|Mi|Gi|Ti|Pi|Ei)|([numkMGTPE])|[eE]([+-]?\d+))?$/;
const DECIMAL_EXPONENT: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const BINARY_EXPONENT: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/**
 * milliValue mirrors resource.Quantity's MilliValue for the text a node's status.allocatable holds (`100m`, `2`,
 * `1.5`, `4k`, `1Ki`, `2e3`): the quantity in thousandths, rounded up as ScaledValue(-3) rounds; undefined for text
 * that is no quantity. Exact (BigInt), so `0.1` is 100, not 100.00000000000001.
 */
export function milliValue(text: string): number | undefined {
  const m = QUANTITY.exec(text);
  if (m === null) return undefined;
  const [, sign = '', whole = '', fraction = '', binary, decimal, exponent] = m;
  if (whole === '' && fraction === '') return undefined;
  let mantissa = BigInt(`${whole}${fraction}` || '0');
  const scale =
    3 -
    fraction.length +
    (decimal !== undefined ? DECIMAL_EXPONENT[decimal]! : 0) +
    (exponent !== undefined ? Number(exponent) : 0);
  if (binary !== undefined) mantissa <<= BigInt(BINARY_EXPONENT[binary]!);
  if (sign === '-') mantissa = -mantissa;
  if (scale >= 0) return Number(mantissa * 10n ** BigInt(scale));
  const divisor = 10n ** BigInt(-scale);
  const quotient = mantissa / divisor;
  return Number(mantissa % divisor > 0n ? quotient + 1n : quotient);
}
