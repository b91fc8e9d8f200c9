/** percentile is the nearest-rank p-th percentile (p in 0..100); undefined for no values. */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** total adds up counts: a record's (requests by API or by method and code, joins by group, pods by controller) or a list's. */
export function total(counts: Readonly<Record<string, number>> | readonly number[]): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}
