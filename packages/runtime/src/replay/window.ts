const UNITS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * timeOrAge reads a point in time given as RFC 3339 (`2026-11-23T10:42:00Z`) or as an age before now (`30s`, `10m`,
 * `2h`, `1d`), in ms since the epoch; anything else is an error naming what was given.
 */
export function timeOrAge(text: string, now: number): number {
  const age = /^(\d+)([smhd])$/.exec(text);
  if (age) return now - Number(age[1]) * (UNITS[age[2] ?? 's'] ?? 1000);
  const t = Date.parse(text);
  if (Number.isNaN(t)) throw new Error(`${JSON.stringify(text)} is neither an RFC 3339 time nor an age like 10m`);
  return t;
}
