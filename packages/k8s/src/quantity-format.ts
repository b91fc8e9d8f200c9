/*
 * Quantity.String and CanonicalizeBytes (k8s.io/apimachinery pkg/api/resource quantity.go, amount.go, suffix.go):
 * the string the API and the quota controller's status.used carry.
 */
import { pow10, type Quantity } from './quantity.ts';

const DECIMAL_SUFFIX: Readonly<Record<number, string>> = {
  [-9]: 'n',
  [-6]: 'u',
  [-3]: 'm',
  0: '',
  3: 'k',
  6: 'M',
  9: 'G',
  12: 'T',
  15: 'P',
  18: 'E',
};
const BINARY_SUFFIX: readonly string[] = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/**
 * quantityString is Quantity.String: the cached string when parsing kept one, else CanonicalizeBytes' number and
 * suffix. Zero is "0". BinarySI is written in powers of 1024 when the value is an integer of magnitude at least 1024,
 * else as DecimalSI. DecimalSI and DecimalExponent take the largest exponent that is a multiple of 3 and keeps the
 * number an integer; an exponent with no SI suffix (past E, or a power of 1024 past Ei) is written with none, as
 * upstream's suffixer answers nothing for it.
 */
export function quantityString(q: Quantity): string {
  if (q.text !== undefined) return q.text;
  if (q.mantissa === 0n) return '0';
  const integer = q.format === 'BinarySI' ? integerValue(q) : undefined;
  if (integer !== undefined && (integer >= 1024n || integer <= -1024n)) return base1024(integer);
  const [number, exponent] = base10(q);
  if (q.format === 'DecimalExponent') return exponent === 0 ? number : `${number}e${exponent}`;
  return number + (DECIMAL_SUFFIX[exponent] ?? '');
}

/** integerValue is AsScale(0) when exact: the value when it is an integer. */
function integerValue(q: Quantity): bigint | undefined {
  if (q.scale >= 0) return q.mantissa * pow10(q.scale);
  const divisor = pow10(-q.scale);
  return q.mantissa % divisor === 0n ? q.mantissa / divisor : undefined;
}

/** base1024 is AsCanonicalBase1024Bytes and the binary suffix: the integer n without its factors of 1024. */
function base1024(n: bigint): string {
  let exponent = 0;
  while (n % 1024n === 0n) [n, exponent] = [n / 1024n, exponent + 1];
  return `${n}${BINARY_SUFFIX[exponent] ?? ''}`;
}

/** base10 is AsCanonicalBytes: the mantissa without trailing zeros, then the exponent lowered to a multiple of 3. */
function base10(q: Quantity): [string, number] {
  let n = q.mantissa;
  let exponent = q.scale;
  while (n % 10n === 0n) [n, exponent] = [n / 10n, exponent + 1];
  const down = ((exponent % 3) + 3) % 3;
  return [`${n * pow10(down)}`, exponent - down];
}
