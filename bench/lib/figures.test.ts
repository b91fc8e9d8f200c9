import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { figuresOfRun, mergeFigures, type Figure } from './figures.ts';

/** figure is a row of the figures file with the given label, kcm-bus figure and date; the other cells fixed. */
function figure(row: string, kcmBus: string, date: string): Figure {
  return { row, upstream: '1.0 s', kcmBus, ratio: '-', note: '', date, commit: 'abc1234', knobs: 'none' };
}

const OLD = '2026-11-20T10:00:00Z';
const NEW = '2026-11-28T10:00:00Z';
const rowsOf = (figures: readonly Figure[]): string[] => figures.map((f) => `${f.row}: ${f.kcmBus} ${f.date}`);

describe('mergeFigures: the figures file after a run', () => {
  const old = [
    figure('S1 CPU-seconds per 1000 pods, qps 20/30', '11.9 s', OLD),
    figure('S1 ceiling: 1000 pods by a plain loop (64 in flight)', '6.6 s', OLD),
    figure('S4 pod Ready → in Endpoints, p50', '28.0 ms', OLD),
    figure('S13 idle CPU-seconds per minute, 0 pods', '0.9 s', OLD),
    figure('S13 idle CPU-seconds per minute, 10000 pods', '0.7 s', OLD),
  ];

  it('given a run of S1 alone, then its rows take the new figure and date, and every other row keeps its own', () => {
    const run = [
      figure('S1 CPU-seconds per 1000 pods, qps 20/30', '17.8 s', NEW),
      figure('S1 ceiling: 1000 pods by a plain loop (64 in flight)', '7.0 s', NEW),
    ];
    assert.deepEqual(rowsOf(mergeFigures(old, run)), [
      `S1 CPU-seconds per 1000 pods, qps 20/30: 17.8 s ${NEW}`,
      `S1 ceiling: 1000 pods by a plain loop (64 in flight): 7.0 s ${NEW}`,
      `S4 pod Ready → in Endpoints, p50: 28.0 ms ${OLD}`,
      `S13 idle CPU-seconds per minute, 0 pods: 0.9 s ${OLD}`,
      `S13 idle CPU-seconds per minute, 10000 pods: 0.7 s ${OLD}`,
    ]);
  });

  it("given a run that prints some of a scenario's rows, then the others keep their figure, each after the row it followed", () => {
    const run = [figure('S13 idle CPU-seconds per minute, 10000 pods', '0.5 s', NEW)];
    assert.deepEqual(rowsOf(mergeFigures(old, run)).slice(3), [
      `S13 idle CPU-seconds per minute, 0 pods: 0.9 s ${OLD}`,
      `S13 idle CPU-seconds per minute, 10000 pods: 0.5 s ${NEW}`,
    ]);
  });

  it('given a run of a scenario the file has no rows of, then they come in as its section, in id order', () => {
    const run = [figure('chaos kill -9 writer: seconds to converge, scale-up', '11.1 s', NEW)];
    const s7 = [figure('S7 kill writer at 500 pods: pods over-created', '0.0 pods', NEW)];
    const merged = mergeFigures(mergeFigures(old, run), s7);
    assert.deepEqual(
      merged.map((f) => f.row.split(' ')[0]),
      ['S1', 'S1', 'S4', 'S7', 'S13', 'S13', 'chaos'],
    );
  });

  it("given a run that prints a row twice, or an old file that has it twice, then it is in the file once: the run's last", () => {
    const label = 'S4 pod Ready → in Endpoints, p50';
    const twice = [...old, figure(label, '99.0 ms', OLD)];
    const run = [figure(label, '20.0 ms', NEW), figure(label, '21.0 ms', NEW)];
    const merged = mergeFigures(twice, run);
    assert.deepEqual(
      merged.filter((f) => f.row === label).map((f) => f.kcmBus),
      ['21.0 ms'],
    );
    assert.equal(mergeFigures(twice, []).filter((f) => f.row === label).length, 1);
  });

  it('given the merge of a run, then merging the same run again changes nothing', () => {
    const run = [figure('S4 pod Ready → in Endpoints, p50', '20.0 ms', NEW)];
    const once = mergeFigures(old, run);
    assert.deepEqual(mergeFigures(once, run), once);
  });
});

describe("figuresOfRun: a saved run's rows as figures", () => {
  const rows = [
    { scenario: 'S1 CPU-seconds per 1000 pods, qps 20/30', unit: 's', upstream: 2.04, kcmBus: 12.16, note: 'n' },
    { scenario: 'S4S pod Ready → in EndpointSlices, p50', unit: 'ms', kcmBus: 18 },
  ];

  it("given a run with its commit and scenarios, then each row takes its scenario's end, to the second, and knobs", () => {
    const run = {
      at: '2026-11-28T12:00:00.000Z',
      commit: 'abc1234-dirty',
      scenarios: {
        s1: { at: '2026-11-28T11:00:00.123Z', knobs: [] },
        s4s: { at: '2026-11-28T11:30:00.456Z', knobs: ['BENCH_STEPS=10', 'BENCH_KAFKA_AUTH=1'] },
      },
      rows,
    };
    assert.deepEqual(figuresOfRun(run), [
      {
        row: 'S1 CPU-seconds per 1000 pods, qps 20/30',
        upstream: '2.0 s',
        kcmBus: '12.2 s',
        ratio: '5.96',
        note: 'n',
        date: '2026-11-28T11:00:00Z',
        commit: 'abc1234-dirty',
        knobs: 'none',
      },
      {
        row: 'S4S pod Ready → in EndpointSlices, p50',
        upstream: '-',
        kcmBus: '18.0 ms',
        ratio: '-',
        note: '',
        date: '2026-11-28T11:30:00Z',
        commit: 'abc1234-dirty',
        knobs: 'BENCH_STEPS=10, BENCH_KAFKA_AUTH=1',
      },
    ]);
  });

  it("given a bench.json of before the figures file (no commit, no scenarios), then the run's time, commit and knobs unknown", () => {
    const [first] = figuresOfRun({ at: '2026-11-27T18:06:56.362Z', rows });
    assert.deepEqual([first?.date, first?.commit, first?.knobs], ['2026-11-27T18:06:56Z', 'unknown', 'unknown']);
  });
});
