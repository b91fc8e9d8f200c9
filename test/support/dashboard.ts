import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** DASHBOARD is the Grafana dashboard of the kcm-bus services. */
export const DASHBOARD = resolve(import.meta.dirname, '../../deploy/grafana/kcm-bus.json');

/** Panel is what the tests read of a dashboard panel. */
export type Panel = {
  readonly type: string;
  readonly title: string;
  readonly datasource?: { readonly type: string; readonly uid: string };
  readonly targets?: readonly { readonly expr?: string; readonly datasource?: { readonly uid: string } }[];
};

/** dashboardPanels are the dashboard's panels (rows included). */
export function dashboardPanels(): readonly Panel[] {
  return (JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] }).panels;
}

/** PROMQL_WORDS are PromQL's functions, aggregations and keywords: identifiers that are not series names. */
const PROMQL_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
]);

/**
 * seriesNames are the series an expression selects: string literals, label matchers `{…}`, ranges `[…]` and the
 * label lists of by/without/on/ignoring are dropped, then every identifier not called as a function `f(` is one.
 */
export function seriesNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = [...bare.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)]
    .filter(([, name, call]) => call === undefined && !PROMQL_WORDS.has(name!) && !/^(Inf|NaN)$/i.test(name!))
    .map(([, name]) => name!);
  return [...new Set(names)];
}

/** SERIES_OF are the series names a metric family of each type exposes (a histogram: its buckets, sum and count). */
const SERIES_OF: Readonly<Record<string, readonly string[]>> = {
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

/** exportedSeries are the series names a /metrics text exposes, from its `# TYPE` lines (also those with no sample yet). */
export function exportedSeries(text: string): Set<string> {
  const series = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    for (const suffix of SERIES_OF[type!] ?? ['']) series.add(`${name}${suffix}`);
  }
  return series;
}
