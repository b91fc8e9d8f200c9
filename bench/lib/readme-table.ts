import type { Figure } from './figures.ts';

/** MEASURED is the heading of README.md's section whose first table shows a few rows of docs/figures.md. */
export const MEASURED = '## Measured';

const HEAD = ['| row | upstream | kcm-bus | ratio | date |', '|---|---|---|---|---|'];

/** tableAt finds the first markdown table after the MEASURED heading, before the next section: its first and end line. */
function tableAt(lines: readonly string[]): { readonly first: number; readonly end: number } {
  const heading = lines.indexOf(MEASURED);
  const next = lines.findIndex((l, i) => i > heading && l.startsWith('## '));
  const first = lines.findIndex((l, i) => i > heading && (next < 0 || i < next) && l.startsWith('|'));
  if (heading < 0 || first < 0) throw new Error(`README.md has no table under "${MEASURED}"`);
  const end = lines.findIndex((l, i) => i > first && !l.startsWith('|'));
  return { first, end: end < 0 ? lines.length : end };
}

/**
 * syncMeasuredTable is README.md with the table of its "Measured" section rewritten from the figures: the rows it
 * names (by their first cell, as in docs/figures.md), in its order, each with the figures' upstream, kcm-bus, ratio
 * and date. A row the figures do not have is an error: the README would show a figure no file keeps.
 */
export function syncMeasuredTable(readme: string, figures: readonly Figure[]): string {
  const lines = readme.split('\n');
  const { first, end } = tableAt(lines);
  const rows = lines.slice(first + 2, end).map((l) => {
    const name = l.split('|')[1]?.trim() ?? '';
    const f = figures.find((x) => x.row === name);
    if (f === undefined) throw new Error(`README.md's "${MEASURED}" table names "${name}", no row of docs/figures.md`);
    return `| ${f.row} | ${f.upstream} | ${f.kcmBus} | ${f.ratio} | ${f.date} |`;
  });
  return [...lines.slice(0, first), ...HEAD, ...rows, ...lines.slice(end)].join('\n');
}
