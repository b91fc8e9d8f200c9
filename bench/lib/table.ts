import type { Row } from './scenario.ts';

/** Cells are a row's figures as the table prints them: each side with its unit ('-' when absent), and the ratio. */
export type Cells = { readonly upstream: string; readonly kcmBus: string; readonly ratio: string };

/** fixed prints a figure with a precision that suits its size. */
function fixed(v: number | undefined, unit: string): string {
  if (v === undefined) return '-';
  return `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ${unit}`;
}

/** cellsOf is how the table prints a row's figures: the ratio is kcm-bus / upstream, '-' without both or over 0. */
export function cellsOf(r: Row): Cells {
  const ratio =
    r.upstream !== undefined && r.kcmBus !== undefined && r.upstream !== 0 ? (r.kcmBus / r.upstream).toFixed(2) : '-';
  return { upstream: fixed(r.upstream, r.unit), kcmBus: fixed(r.kcmBus, r.unit), ratio };
}

/** formatTable renders rows as the benchmark table: scenario, upstream, kcm-bus, ratio (kcm-bus / upstream), note. */
export function formatTable(rows: readonly Row[]): string {
  const width = Math.max(8, ...rows.map((r) => r.scenario.length));
  const head = `${'scenario'.padEnd(width)} ${'upstream'.padStart(11)} ${'kcm-bus'.padStart(11)} ${'ratio'.padStart(6)}  note`;
  const lines = rows.map((r) => {
    const c = cellsOf(r);
    return `${r.scenario.padEnd(width)} ${c.upstream.padStart(11)} ${c.kcmBus.padStart(11)} ${c.ratio.padStart(6)}  ${r.note ?? ''}`.trimEnd();
  });
  return [head, ...lines].join('\n');
}
