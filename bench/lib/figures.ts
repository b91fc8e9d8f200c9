import type { Row } from './scenario.ts';
import { compareIds } from './scenarios.ts';
import { cellsOf } from './table.ts';

/**
 * Figure is one row of docs/figures.md, each cell as written there: the row's label (its key: the bench prints no two
 * rows alike), its figures as the bench's table prints them, its note, when its scenario ended (UTC, to the second),
 * the commit it ran at and the knobs set for it.
 */
export type Figure = {
  readonly row: string;
  readonly upstream: string;
  readonly kcmBus: string;
  readonly ratio: string;
  readonly note: string;
  readonly date: string;
  readonly commit: string;
  readonly knobs: string;
};

/** ScenarioRun is what bench.json records of one scenario of a run: when it ended, and the knobs set for it. */
export type ScenarioRun = { readonly at: string; readonly knobs: readonly string[] };

/**
 * SavedRun is what the figures are taken from in bench/out/bench.json: the run's rows and the time of its last
 * report; since the figures file exists, also the commit (`abc1234`, `abc1234-dirty`) and each scenario's end and
 * knobs, by id. A bench.json from before has neither: its rows take the run's time, and commit and knobs are unknown.
 */
export type SavedRun = {
  readonly at: string;
  readonly commit?: string;
  readonly scenarios?: Readonly<Record<string, ScenarioRun>>;
  readonly rows: readonly Row[];
};

/** sectionOf is the scenario a row belongs to: the first word of its label (S1, S4S, chaos), which is its id. */
export function sectionOf(row: string): string {
  return row.split(' ')[0] ?? row;
}

/** figuresOfRun are a saved run's rows as figures, each dated and described by its own scenario's run. */
export function figuresOfRun(run: SavedRun): Figure[] {
  return run.rows.map((r) => {
    const scenario = run.scenarios?.[sectionOf(r.scenario).toLowerCase()];
    const knobs = scenario === undefined ? 'unknown' : scenario.knobs.join(', ') || 'none';
    return {
      row: r.scenario,
      ...cellsOf(r),
      note: r.note ?? '',
      date: (scenario?.at ?? run.at).replace(/\.\d+Z$/, 'Z'),
      commit: run.commit ?? 'unknown',
      knobs,
    };
  });
}

/**
 * mergeFigures is the figures file after a run: every row the run printed, with its new figures, and every other row
 * of the old file as it was. A row keeps its place: the run's rows in the run's order, each old row the run did not
 * print right after the row that preceded it in the old file; then the rows are grouped by scenario, in id order.
 */
export function mergeFigures(old: readonly Figure[], run: readonly Figure[]): Figure[] {
  const merged = [...new Map(run.map((f) => [f.row, f])).values()];
  const placed = new Set(merged.map((f) => f.row));
  old.forEach((f, i) => {
    if (placed.has(f.row)) return;
    const before = i === 0 ? -1 : merged.findIndex((m) => m.row === old[i - 1]?.row);
    merged.splice(before + 1, 0, f);
    placed.add(f.row);
  });
  return merged.sort((a, b) => compareIds(sectionOf(a.row), sectionOf(b.row)));
}
