import { Registry } from 'prom-client';
import type { ControllerDeclaration, Inputs } from '../reconcile/declaration.ts';
import { controllerHooks, Informers } from '../reconcile/informers.ts';
import { COMMON_FLAGS } from '../service/common.ts';
import { busConnection } from '../service/connect.node.ts';
import { FlagError, flagReader, parseFlags, usage, type FlagReader, type FlagSpec } from '../service/flags.ts';
import { jsonLogger, type Level } from '../service/log.ts';
import { readDeployed, readHistory, type HistoryReader } from './history.node.ts';
import { compareDecisions } from './replay-diff.ts';
import { differing, formatReport, type ReplayReport } from './replay-report.ts';
import { type Decision, ReplayRun } from './replay-run.ts';
import { timeOrAge } from './window.ts';

/** REPLAY_FLAGS are the flags of a controller service's `replay` subcommand, besides the service's own. */
export const REPLAY_FLAGS: readonly FlagSpec[] = [
  { name: 'from', type: 'string', default: '', help: 'Start of the window: an RFC 3339 time or an age (30m, 2h, 1d). Required.' },
  { name: 'to', type: 'string', default: '', help: 'End of the window, the same way (default: now).' },
  { name: 'controller', type: 'string', default: '', help: 'The controller to replay, by upstream name (default: every controller of this service).' },
  { name: 'json', type: 'boolean', default: false, help: 'One JSON report per controller instead of the table.' },
];

/**
 * replayService is a controller service's `replay` subcommand (`reconciler-rc replay --from 2h`): it runs this
 * build's controllers over a window of history in dry-run (reading the history topics; nothing is published, no
 * group is joined but throwaway readers) and prints, per key, what it decided beside what the deployed controller
 * published in the window. Exit status as diff's: 0 the same, 1 some key differs, 2 trouble.
 */
export async function replayService(ds: readonly ControllerDeclaration<Inputs>[], specs: readonly FlagSpec[], argv: readonly string[]): Promise<number> {
  const all = [...COMMON_FLAGS, ...specs, ...REPLAY_FLAGS];
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(`${ds[0]!.service} replay: this build's controllers over a window of history, beside what was deployed.\n${usage(all)}`);
    return 0;
  }
  try {
    const flags = flagReader(parseFlags(all, argv, process.env));
    const reports = await replayAll(ds, flags, Date.now());
    for (const r of reports) console.log(flags.boolean('json') ? JSON.stringify(r) : formatReport(r).join('\n'));
    return reports.some((r) => differing(r) > 0) ? 1 : 0;
  } catch (err) {
    console.error(`${ds[0]!.service} replay: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
}

async function replayAll(ds: readonly ControllerDeclaration<Inputs>[], flags: FlagReader, now: number): Promise<ReplayReport[]> {
  if (flags.string('from') === '') throw new FlagError('--from is required');
  const from = timeOrAge(flags.string('from'), now);
  const to = flags.string('to') === '' ? now : timeOrAge(flags.string('to'), now);
  const wanted = flags.string('controller');
  const names = [...new Set(ds.map((d) => d.name))].filter((n) => wanted === '' || n === wanted);
  if (names.length === 0) throw new FlagError(`--controller ${wanted}: this service runs ${ds.map((d) => d.name).join(', ')}`);
  const log = jsonLogger(`${ds[0]!.service}-replay`, { level: flags.string('log-level') as Level, sink: (line) => process.stderr.write(`${line}\n`) });
  const { bus, schemaRegistry } = busConnection(flags, 'kcm-bus-replay');
  const reader: HistoryReader = { bus, registry: schemaRegistry, progress: (line) => log.info(line) };
  const reports: ReplayReport[] = [];
  for (const name of names) reports.push(await replayController(reader, ds.filter((d) => d.name === name), flags, { from, to }));
  return reports;
}

type Window = { readonly from: number; readonly to: number };

/** replayController replays every declaration of one controller (node lifecycle's halves share a name) and compares. */
async function replayController(reader: HistoryReader, ds: readonly ControllerDeclaration<Inputs>[], flags: FlagReader, w: Window): Promise<ReplayReport> {
  const replayed: Decision[] = [];
  let records = 0;
  let skipped = 0;
  for (const d of ds) {
    const { decisions, inputs, undecodable } = await replayDeclaration(reader, d, flags, w);
    replayed.push(...decisions);
    records += inputs;
    skipped += undecodable;
  }
  const deployed = await readDeployed(reader, ds[0]!.name, w.from, w.to);
  const iso = (ms: number): string => new Date(ms).toISOString();
  return { controller: ds[0]!.name, from: iso(w.from), to: iso(w.to), records, skipped, verdicts: compareDecisions(deployed, replayed) };
}

async function replayDeclaration(reader: HistoryReader, d: ControllerDeclaration<Inputs>, flags: FlagReader, w: Window):
  Promise<{ decisions: readonly Decision[]; inputs: number; undecodable: number }> {
  const informers = new Informers<Inputs>(d.inputs);
  const topics = [...informers.topics('partitioned'), ...informers.topics('global')];
  const holder: { run?: ReplayRun } = {};
  const clock = { observedAt: (input: string) => holder.run?.observedAt(informers.topicOf(input)) };
  const spec = d.spec(informers.listers(), { flags, clock, log: jsonLogger(d.name, { sink: () => undefined }), registry: new Registry() });
  const partitions = new Map(await Promise.all(topics.map(async (t) => [t, await reader.bus.partitionCount(t)] as const)));
  const run = new ReplayRun(controllerHooks(d.name, informers, spec), {
    from: w.from, partitions, keepsExpectations: d.expectations ?? false,
    ttlMs: d.expectations ? flags.number('expectations-ttl-seconds') * 1000 : 0,
    tick: d.tick && { keys: d.tick.keys, periodMs: flags.duration(d.tick.flag) },
  });
  holder.run = run;
  const history = await readHistory(reader, topics, w.to);
  for (const input of history.inputs) await run.feed(input);
  return { decisions: await run.finish(w.to), inputs: history.inputs.length, undecodable: history.skipped };
}
