import type { Row } from './scenario.ts';

/** fixed prints a figure with a precision that suits its size. */
function fixed(v: number | undefined, unit: string): string {
  if (v === undefined) return '-';
  return `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ${unit}`;
}

/** formatTable renders rows as the benchmark table: scenario, upstream, kcm-bus, ratio (kcm-bus / upstream), note. */
export function formatTable(rows: readonly Row[]): string {
  const width = Math.max(8, ...rows.map((r) => r.scenario.length));
  const head = `${'scenario'.padEnd(width)} ${'upstream'.padStart(11)} ${'kcm-bus'.padStart(11)} ${'ratio'.padStart(6)}  note`;
  const lines = rows.map((r) => {
    const ratio =
      r.upstream !== undefined && r.kcmBus !== undefined && r.upstream !== 0 ? (r.kcmBus / r.upstream).toFixed(2) : '-';
    return `${r.scenario.padEnd(width)} ${fixed(r.upstream, r.unit).padStart(11)} ${fixed(r.kcmBus, r.unit).padStart(11)} ${ratio.padStart(6)}  ${r.note ?? ''}`.trimEnd();
  });
  return [head, ...lines].join('\n');
}
