import type { Row } from '../../lib/scenario.ts';
import type { PodRecords } from './topic-records.ts';

/** Run is one timed start: seconds from the process's start to synced, and what it read where it says (pods cached, records restored). */
export type Run = { readonly seconds: number; readonly read?: number };

/** Phase is S12's measurements with one history: the pods topics' records before each kcm-bus system's runs, and every run. */
export type Phase = {
  readonly history: 'short' | 'long';
  readonly counts: Readonly<Record<'reconciler' | 'watcher', PodRecords>>;
  readonly runs: Readonly<Record<'reconciler' | 'watcher' | 'upstream', readonly Run[]>>;
};

/**
 * Compaction is what S12 saw after the updates: whether kcm.state.pods got compacted before the deadline, the
 * seconds from the last PATCH answered until it was (or the deadline), and both topics' records then and at the end.
 */
export type Compaction = {
  readonly compacted: boolean;
  readonly seconds: number;
  readonly before: PodRecords;
  readonly after: PodRecords;
};

/** RestartFigures are everything S12 measured, with the state topic's configs as the broker reported them. */
export type RestartFigures = {
  readonly pods: number;
  readonly updates: number;
  readonly repeats: number;
  readonly short: Phase;
  readonly long: Phase;
  readonly compaction: Compaction;
  readonly configs: Readonly<Record<string, string>>;
};

/** GOAL is issue 12's bound on time to synced with the long history over the short one. */
const GOAL = 1.3;

function median(runs: readonly Run[]): number {
  const sorted = runs.map((r) => r.seconds).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const each = (runs: readonly Run[]): string => runs.map((r) => r.seconds.toFixed(1)).join('/');

function label(f: RestartFigures, p: Phase): string {
  return p.history === 'short' ? 'short history' : `long history (${f.updates}× updates)`;
}

function records(c: PodRecords): string {
  return `pod records: state ${c.state.objects}, history ${c.history.objects} (watermarks ${c.state.watermarks}/${c.history.watermarks})`;
}

function reconcilerRow(f: RestartFigures, p: Phase): Row {
  return {
    scenario: `S12 fresh reconciler-rc to synced, ${label(f, p)}`,
    unit: 's',
    upstream: median(p.runs.upstream),
    kcmBus: median(p.runs.reconciler),
    note: `median of ${each(p.runs.reconciler)} s; ${records(p.counts.reconciler)}; ${p.runs.reconciler[0]?.read ?? '?'} pods cached; upstream: kube-controller-manager start to "Caches are synced", ${each(p.runs.upstream)} s`,
  };
}

function watcherRow(f: RestartFigures, p: Phase): Row {
  return {
    scenario: `S12 watcher restart to synced, ${label(f, p)}`,
    unit: 's',
    kcmBus: median(p.runs.watcher),
    note: `median of ${each(p.runs.watcher)} s; restored ${p.runs.watcher.map((r) => r.read).join('/')} records of kcm.state.pods (watermarks included); ${records(p.counts.watcher)}; no upstream counterpart (it relists: rows above)`,
  };
}

function ratioRow(
  what: string,
  short: readonly Run[],
  long: readonly Run[],
  upstream?: readonly [readonly Run[], readonly Run[]],
): Row {
  const kcmBus = median(long) / median(short);
  const up = upstream && median(upstream[1]) / median(upstream[0]);
  return {
    scenario: `S12 ${what}, long / short history`,
    unit: '×',
    upstream: up,
    kcmBus,
    note: `kcm-bus ${kcmBus.toFixed(2)}${up === undefined ? '' : `, upstream ${up.toFixed(2)}`}; goal ≤ ${GOAL}: ${kcmBus <= GOAL ? 'met' : 'NOT met'}`,
  };
}

function compactionRow(f: RestartFigures): Row {
  const c = f.compaction,
    s = c.after.state;
  const settings = ['segment.ms', 'min.cleanable.dirty.ratio', 'max.compaction.lag.ms']
    .map((k) => `${k} ${f.configs[k] ?? '?'}`)
    .join(', ');
  return {
    scenario: `S12 kcm.state.pods compacted after the ${f.updates} updates`,
    unit: 's',
    kcmBus: c.seconds,
    note: `${c.compacted ? '' : 'NOT compacted within the deadline: '}${c.before.state.objects} -> ${s.objects} records for ${s.keys} keys (${s.live} live); history ${c.after.history.objects}; ${settings}`,
  };
}

/**
 * restartRows are S12's table lines: time to synced of a fresh reconciler-rc member (beside upstream's relist) and of
 * a restarted watcher with each history, the long/short ratios against issue 12's goal, and the compaction.
 */
export function restartRows(f: RestartFigures): Row[] {
  return [
    reconcilerRow(f, f.short),
    reconcilerRow(f, f.long),
    ratioRow('fresh reconciler-rc', f.short.runs.reconciler, f.long.runs.reconciler, [
      f.short.runs.upstream,
      f.long.runs.upstream,
    ]),
    watcherRow(f, f.short),
    watcherRow(f, f.long),
    ratioRow('watcher restart', f.short.runs.watcher, f.long.runs.watcher),
    compactionRow(f),
  ];
}
