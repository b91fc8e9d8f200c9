import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Figure } from './figures.ts';
import { formatFigures, KEPT, nextFiguresFile, parseFigures } from './figures-file.ts';

const figure = (row: string, kcmBus: string, date: string, note = ''): Figure => ({
  row,
  upstream: '2.0 s',
  kcmBus,
  ratio: '-',
  note,
  date,
  commit: 'abc1234',
  knobs: 'none',
});

const KEPT_PART = `${KEPT}\n\nWritten by hand: | a | table |\n|---|---|\n| 12.0 | 83.1 |`;

describe('docs/figures.md as the bench writes and reads it', () => {
  const figures = [
    figure('S1 CPU-seconds per 1000 pods, qps 20/30', '11.9 s', '2026-11-27T18:06:56Z', 'watcher 3.8 | writer 3.5'),
    figure('S13 idle CPU-seconds per minute, 0 pods', '0.9 s', '2026-11-27T19:05:48Z'),
  ];

  it('given figures and a part kept by hand, then the file has a table per scenario and reads back the same', () => {
    const text = formatFigures({ figures, kept: KEPT_PART });
    assert.match(text, /^## S1\n\n\| row \| upstream \| kcm-bus \| ratio \| note \| date \| commit \| knobs set \|$/m);
    assert.match(text, /^## S13$/m);
    assert.ok(text.endsWith(`${KEPT_PART}\n`));
    assert.deepEqual(parseFigures(text), { figures, kept: KEPT_PART });
  });

  it('given the old file and a run of S1, then S1 takes the new figure, S13 and the kept part stay as they were', () => {
    const old = formatFigures({ figures, kept: KEPT_PART });
    const run = [figure('S1 CPU-seconds per 1000 pods, qps 20/30', '17.8 s', '2026-11-28T10:00:00Z')];
    const next = parseFigures(nextFiguresFile(old, run));
    assert.deepEqual(next.figures, [run[0], figures[1]]);
    assert.equal(next.kept, KEPT_PART);
  });

  it('given no file yet, then a run writes one with its rows and nothing kept', () => {
    const text = nextFiguresFile('', figures);
    assert.deepEqual(parseFigures(text), { figures, kept: '' });
    assert.ok(text.startsWith('# Figures\n'));
  });

  it('given docs/figures.md as checked in, then it is as the bench writes it, and no row is in it twice', () => {
    const text = readFileSync(join(import.meta.dirname, '../../docs/figures.md'), 'utf8');
    const file = parseFigures(text);
    assert.equal(formatFigures(file), text);
    const rows = file.figures.map((f) => f.row);
    assert.deepEqual(
      rows.filter((r, i) => rows.indexOf(r) !== i),
      [],
    );
  });
});
