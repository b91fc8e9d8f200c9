/**
 * The Prometheus text format, read: what tests and benchmarks take from a service's or the apiserver's /metrics.
 */

/** Scraped reads one /metrics page: the sum of a metric's samples whose labels include the given ones (0 when none). */
export type Scraped = (name: string, labels?: Readonly<Record<string, string>>) => number;

/** MetricSample is one sample line of a Prometheus text page: its labels and value. */
export type MetricSample = { readonly labels: Readonly<Record<string, string>>; readonly value: number };

/** sampleLines are the sample lines of metric `name` among a page's lines. */
const sampleLines = (lines: readonly string[], name: string): string[] =>
  lines.filter((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));

const valueOf = (line: string): number => Number(line.split(' ').at(-1));

/** parseMetrics reads a Prometheus text page: the sum of a metric's samples whose labels include the given ones (0 when none). */
export function parseMetrics(page: string): Scraped {
  const lines = page.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  return (name, labels = {}) => {
    const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
    return sampleLines(lines, name)
      .filter((l) => want.every((w) => l.includes(w)))
      .reduce((sum, l) => sum + valueOf(l), 0);
  };
}

/** metricSamples are the samples of a metric on a Prometheus text page, each with its labels. */
export function metricSamples(page: string, name: string): MetricSample[] {
  return sampleLines(page.split('\n'), name).map((l) => ({
    labels: Object.fromEntries([...l.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!])),
    value: valueOf(l),
  }));
}

/** sumsBy sums a metric's samples on a page by a name keyOf gives their labels (samples it names undefined are left out). */
export function sumsBy(
  page: string,
  name: string,
  keyOf: (labels: Readonly<Record<string, string>>) => string | undefined,
): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const { labels, value } of metricSamples(page, name)) {
    const key = keyOf(labels);
    if (key !== undefined) sums[key] = (sums[key] ?? 0) + value;
  }
  return sums;
}
