import { mergeFigures, sectionOf, type Figure } from './figures.ts';

/** KEPT is the heading from which docs/figures.md is written by hand: the bench carries that part over unchanged. */
export const KEPT = '## Outside `npm run bench`';

const COLUMNS = ['row', 'upstream', 'kcm-bus', 'ratio', 'note', 'date', 'commit', 'knobs set'] as const;

const INTRO = `# Figures

The current figure of every row \`npm run bench\` prints, one row per figure. What each scenario measures, how to run
it and how to read its rows is in [benchmarks.md](benchmarks.md); how the figures came to be, in
[benchmarks-history.md](benchmarks-history.md).

The bench writes this file after each scenario: the rows the scenario printed replace the rows of the same name, with
their date, commit and knobs, and every other row stays as it was. So the rows of one scenario may come from different
runs, and each row's date says how current it is. \`npm run bench -- --figures-from bench/out/bench.json\` does the
same from a saved run. The bench also rewrites the table of README.md's "Measured" section from these rows. Tables
above "Outside \`npm run bench\`" are the bench's to write; a row no scenario prints any more (its name changed) stays
until it is deleted here.

- ratio: kcm-bus / upstream.
- date: when the scenario ended (UTC).
- commit: \`git rev-parse --short HEAD\` when the run started, \`-dirty\` when a file other than Markdown differed from
  it; \`unknown\` when not recorded. A row taken from the docs of before this file names the commit those docs named,
  without the check.
- knobs set: the variables of the scenario and of the run (\`npm run bench -- --list\`) set for the run, but those that
  say where the bench stack runs.`;

const escaped = (cell: string): string => cell.replaceAll('|', '\\|');

/** line is one markdown table line of cells. */
function line(cells: readonly string[]): string {
  return `| ${cells.map(escaped).join(' | ')} |`;
}

/** cellsOfLine splits a markdown table line into its cells, `\|` being a | within a cell. */
function cellsOfLine(text: string): string[] {
  return text
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replaceAll('\\|', '|'));
}

/** figureOf reads one table line of the file, or nothing when it is no row of figures (a header, a separator). */
function figureOf(text: string): Figure[] {
  const [row = '', upstream = '', kcmBus = '', ratio = '', note = '', date = '', commit = '', knobs = ''] =
    cellsOfLine(text);
  if (row === COLUMNS[0] || /^-+$/.test(row)) return [];
  return [{ row, upstream, kcmBus, ratio, note, date, commit, knobs }];
}

/** FiguresFile is docs/figures.md read back: the rows of its tables, and its part kept by hand (from KEPT on). */
export type FiguresFile = { readonly figures: readonly Figure[]; readonly kept: string };

/** parseFigures reads docs/figures.md: every row of its tables above KEPT, and the text from KEPT on. */
export function parseFigures(text: string): FiguresFile {
  const at = text.split('\n').findIndex((l) => l.trim() === KEPT);
  const lines = text.split('\n');
  const tables = at < 0 ? lines : lines.slice(0, at);
  const figures = tables.filter((l) => l.startsWith('|')).flatMap(figureOf);
  return { figures, kept: at < 0 ? '' : lines.slice(at).join('\n').trimEnd() };
}

/** formatFigures writes docs/figures.md: the introduction, a table per scenario in the figures' order, the kept part. */
export function formatFigures(file: FiguresFile): string {
  const sections = [...new Set(file.figures.map((f) => sectionOf(f.row)))].map((section) =>
    [
      `## ${section}`,
      '',
      line(COLUMNS),
      line(COLUMNS.map(() => '---')),
      ...file.figures
        .filter((f) => sectionOf(f.row) === section)
        .map((f) => line([f.row, f.upstream, f.kcmBus, f.ratio, f.note, f.date, f.commit, f.knobs])),
    ].join('\n'),
  );
  return `${[INTRO, ...sections, ...(file.kept ? [file.kept] : [])].join('\n\n')}\n`;
}

/** nextFiguresFile is docs/figures.md after a run: the old file's rows merged with the run's (mergeFigures). */
export function nextFiguresFile(old: string, run: readonly Figure[]): string {
  const { figures, kept } = parseFigures(old);
  return formatFigures({ figures: mergeFigures(figures, run), kept });
}
