const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * parseGoDuration reads a flag the way Go's time.ParseDuration does (`0`, `500ms`, `1s`, `1m30s`), in milliseconds:
 * upstream's duration flags, such as --endpoint-updates-batch-period, keep their spelling. Throws on anything else.
 */
export function parseGoDuration(text: string): number {
  if (text === '0') return 0;
  const parts = [...text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text)
    throw new Error(`${JSON.stringify(text)} is not a duration (e.g. 0s, 500ms, 1s)`);
  return parts.reduce((ms, p) => ms + Number(p[1]) * UNIT_MS[p[2]!]!, 0);
}
