import { Registry } from 'prom-client';
import type { Declared } from '../controller/catalog-declaration.ts';
import type { ControllerDeclaration, Inputs } from '../controller/declaration.ts';
import { controllerHooks, Informers } from '../controller/informers.ts';
import { COMMON_FLAGS } from '../service/common.ts';
import { busConnection } from '../service/connect.node.ts';
import {
  FlagError,
  flagReader,
  parseFlags,
  usage,
  wantsHelp,
  type FlagReader,
  type FlagSpec,
} from '../service/flags.ts';
import { jsonLogger, type Level } from '../service/log.ts';
import { loadSigning } from '../signing/signing-keys.fs.ts';
import { ControllerReplay } from './controller-replay.ts';
import { type History, readDeployed, readHistory, readResults, type HistoryReader } from './history.node.ts';
import { compareDecisions } from './replay-diff.ts';
import type { TimedDecision } from './replay-input.ts';
import { differing, formatReport, type ReplayReport } from './replay-report.ts';
import { timeOrAge } from './window.ts';

/** REPLAY_FLAGS are the flags of a controller service's `replay` subcommand, besides the service's own. */
export const REPLAY_FLAGS: readonly FlagSpec[] = [
  {
    name: 'from',
    type: 'string',
    default: '',
    help: 'Start of the window: an RFC 3339 time or an age (30m, 2h, 1d). Required.',
  },
  { name: 'to', type: 'string', default: '', help: 'End of the window, the same way (default: now).' },
  {
    name: 'controller',
    type: 'string',
    default: '',
    help: 'The controller to replay, by upstream name (default: every controller of this service).',
  },
  { name: 'json', type: 'boolean', default: false, help: 'One JSON report per controller instead of the table.' },
];

/**
 * replayService is a controller service's `replay` subcommand (`reconciler-rc replay --from 2h`): it runs this
 * build's controllers, each the runtime's own Controller loop, over a window of history in dry-run (reading the
 * history topics and the controller's results; nothing is published, no group is joined but throwaway readers) and
 * prints, per key, what it decided beside what the deployed controller published in the window. Exit status as
 * diff's: 0 the same, 1 some key differs, 2 trouble.
 */
export async function replayService(
  ds: readonly Declared[],
  specs: readonly FlagSpec[],
  argv: readonly string[],
): Promise<number> {
  const all = [...COMMON_FLAGS, ...specs, ...REPLAY_FLAGS];
  if (wantsHelp(argv)) {
    console.log(
      `${ds[0]!.service} replay: this build's controllers over a window of history, beside what was deployed.\n${usage(all)}`,
    );
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

async function replayAll(ds: readonly Declared[], flags: FlagReader, now: number): Promise<ReplayReport[]> {
  if (flags.string('from') === '') throw new FlagError('--from is required');
  const from = timeOrAge(flags.string('from'), now);
  const to = flags.string('to') === '' ? now : timeOrAge(flags.string('to'), now);
  const wanted = flags.string('controller');
  const names = [...new Set(ds.map((d) => d.name))].filter((n) => wanted === '' || n === wanted);
  if (names.length === 0)
    throw new FlagError(`--controller ${wanted}: this service runs ${ds.map((d) => d.name).join(', ')}`);
  const log = jsonLogger(`${ds[0]!.service}-replay`, {
    level: flags.string('log-level') as Level,
    sink: (line) => process.stderr.write(`${line}\n`),
  });
  const { bus, schemaRegistry } = busConnection(flags, 'kcm-bus-replay');
  const reader: HistoryReader = { bus, registry: schemaRegistry, progress: (line) => log.info(line) };
  const reports: ReplayReport[] = [];
  for (const name of names)
    reports.push(
      await replayController(
        reader,
        ds.filter((d) => d.name === name),
        flags,
        { from, to },
      ),
    );
  return reports;
}

type Window = { readonly from: number; readonly to: number };

/**
 * replayController replays every declaration of one controller (node lifecycle's parts share a name), each over its
 * inputs' history and the controller's results, and compares.
 */
async function replayController(
  reader: HistoryReader,
  ds: readonly Declared[],
  flags: FlagReader,
  w: Window,
): Promise<ReplayReport> {
  const replayed: TimedDecision[] = [];
  const results = await readResults(reader, ds[0]!.name, loadSigning(flags.string('signing-dir'), ds[0]!.name), w.to);
  let records = 0;
  let skipped = results.skipped;
  for (const d of ds) {
    const { decisions, inputs, undecodable } = await d.open((declaration) =>
      replayDeclaration(reader, declaration, flags, w, results),
    );
    replayed.push(...decisions);
    records += inputs;
    skipped += undecodable;
  }
  const deployed = await readDeployed(reader, ds[0]!.name, w.from, w.to);
  const iso = (ms: number): string => new Date(ms).toISOString();
  return {
    controller: ds[0]!.name,
    from: iso(w.from),
    to: iso(w.to),
    records,
    skipped,
    verdicts: compareDecisions(deployed, replayed),
  };
}

/** replayDeclaration runs the declaration's controller, built as the service builds it, over the window (ControllerReplay). */
async function replayDeclaration<L extends Inputs>(
  reader: HistoryReader,
  d: ControllerDeclaration<L>,
  flags: FlagReader,
  w: Window,
  results: History,
): Promise<{ decisions: readonly TimedDecision[]; inputs: number; undecodable: number }> {
  const informers = new Informers<L>(d.inputs);
  const partitioned = informers.topics('partitioned');
  const topics = [...partitioned, ...informers.topics('global')];
  const partitions = new Map(
    await Promise.all(topics.map(async (t) => [t, await reader.bus.partitionCount(t)] as const)),
  );
  const replay = new ControllerReplay({
    ...w,
    partitions,
    partitioned,
    singleton: d.singleton ?? false,
    expectationsTtlMs: d.expectations ? flags.number('expectations-ttl-seconds') * 1000 : undefined,
    tick: d.tick && { keys: d.tick.keys, periodMs: flags.duration(d.tick.flag) },
    retryBackoff: d.retryBackoff,
  });
  const watermarks = { watermark: (input: string, key?: string) => replay.watermark(informers.topicOf(input), key) };
  const spec = d.spec(informers.listers(), {
    flags,
    watermarks,
    log: jsonLogger(d.name, { sink: () => undefined }),
    registry: new Registry(),
  });
  const history = await readHistory(reader, topics, w.to);
  const inputs = [...history.inputs, ...results.inputs].sort((a, b) => a.at - b.at);
  const decisions = await replay.run(controllerHooks(d.name, informers, spec), inputs);
  return { decisions, inputs: history.inputs.length, undecodable: history.skipped };
}
