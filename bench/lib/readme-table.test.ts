import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Figure } from './figures.ts';
import { parseFigures } from './figures-file.ts';
import { syncMeasuredTable } from './readme-table.ts';

const ROOT = join(import.meta.dirname, '../..');

const figure = (row: string, kcmBus: string, date: string): Figure => ({
  row,
  upstream: '2.0 s',
  kcmBus,
  ratio: '5.96',
  note: 'not shown',
  date,
  commit: 'abc1234',
  knobs: 'none',
});

const FIGURES = [
  figure('S1 CPU-seconds per 1000 pods, qps 20/30', '11.9 s', '2026-11-27T18:06:56Z'),
  figure('S13 idle CPU-seconds per minute, 0 pods', '0.9 s', '2026-11-27T19:05:48Z'),
];

const readme = (...rows: string[]): string =>
  [
    '# x',
    '',
    '## Measured',
    '',
    'Some rows:',
    '',
    '| row | old |',
    '|---|---|',
    ...rows,
    '',
    'After.',
    '## Next',
    '',
  ].join('\n');

describe("README.md's Measured table, rewritten from docs/figures.md", () => {
  it('given the rows it names, in its order, then each takes the figures, ratio and date, and nothing else changes', () => {
    const before = readme(
      '| S13 idle CPU-seconds per minute, 0 pods | 1 |',
      '| S1 CPU-seconds per 1000 pods, qps 20/30 | 2 |',
    );
    assert.equal(
      syncMeasuredTable(before, FIGURES),
      readme(
        '| S13 idle CPU-seconds per minute, 0 pods | 2.0 s | 0.9 s | 5.96 | 2026-11-27T19:05:48Z |',
        '| S1 CPU-seconds per 1000 pods, qps 20/30 | 2.0 s | 11.9 s | 5.96 | 2026-11-27T18:06:56Z |',
      ).replace('| row | old |\n|---|---|', '| row | upstream | kcm-bus | ratio | date |\n|---|---|---|---|---|'),
    );
  });

  it('given a row the figures do not have, or no table under the heading, then it fails and says which', () => {
    assert.throws(
      () => syncMeasuredTable(readme('| S2 gone | 1 |'), FIGURES),
      /names "S2 gone", no row of docs\/figures.md/,
    );
    assert.throws(
      () => syncMeasuredTable('# x\n\n## Measured\n\nNo table.\n## Next\n| a |', FIGURES),
      /no table under/,
    );
  });

  it("given README.md and docs/figures.md as checked in, then README's table is what the bench writes from the figures", () => {
    const readmeText = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const { figures } = parseFigures(readFileSync(join(ROOT, 'docs/figures.md'), 'utf8'));
    assert.equal(
      syncMeasuredTable(readmeText, figures),
      readmeText,
      "README's Measured table is not docs/figures.md's: the bench writes both (writeFigures)",
    );
  });
});
