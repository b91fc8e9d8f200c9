/**
 * `npm run bench [-- --only s1,s8]` — kcm-bus side by side with upstream kube-controller-manager, in one run on one
 * machine: brings up its own stack (bench/lib/bench-stack.ts: profile "bench" or KCM_BUS_BENCH_PROFILE, ports 17600+
 * or KCM_BUS_PORT_BASE, 4 kwok nodes, kube-scheduler at 1000 qps so binding is never the bottleneck), starts the
 * watcher, runs the scenarios of bench/scenarios/<name>/ in turn (each starts and stops the systems it compares),
 * prints one table and writes bench/out/bench.json with every figure and the flag values in effect, and after each
 * scenario its rows into docs/figures.md and README.md's table (bench/lib/report.ts). Everything it started is
 * stopped at the end, also on failure and on Ctrl-C or SIGTERM (onInterrupt). `npm run bench -- --list` prints each
 * scenario's id (what --only takes), name, what it measures and the variables it reads; `npm run bench --
 * --figures-from <bench.json>` writes a saved run's rows into docs/figures.md and README.md, and starts nothing.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { down } from '@kcm-bus/stack/stack.ts';
import { onInterrupt } from '@kcm-bus/stack/interrupt.ts';
import { stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { benchStack, startBench } from './lib/bench-stack.ts';
import { startBrokerProfile } from './lib/broker-profile.ts';
import { profileOptions, summarizeProfiles } from './lib/cpu-profile.ts';
import { PERF_NODE_OPTIONS, type PerfRecording, startPerf, summarizePerf } from './lib/perf-profile.ts';
import { stackPids } from './lib/cpu.ts';
import { knobsSet, knobValue, RUN } from './lib/knobs.ts';
import { formatList } from './lib/list.ts';
import { figuresFrom, report, runCommit, type RunSoFar } from './lib/report.ts';
import { allScenarios, chooseScenarios } from './lib/scenarios.ts';
import type { BenchContext, Scenario, ScenarioResult } from './lib/scenario.ts';
import { warmUp } from './lib/warm-up.ts';

const OUT = resolve(import.meta.dirname, 'out');
const PROFILES = join(OUT, 'profiles');
const CPU_PROFILE = knobValue(RUN.cpuProfile) === '1';
const PERF_DIR = join(OUT, 'perf');
const PERF = knobValue(RUN.perf) === '1';
const BROKER_PROFILE = knobValue(RUN.brokerProfile) === '1';

/** flagValue is the word after a flag (`--only s1,s8`), if the flag is given. */
function flagValue(argv: readonly string[], flag: string): string | undefined {
  const i = argv.indexOf(flag);
  return i < 0 ? undefined : argv[i + 1];
}

/**
 * runAll runs the chosen scenarios on the running stack; after each it reports (the table, bench.json, the figures),
 * the scenario's rows dated by its end. The commit is read before anything is written.
 */
async function runAll(chosen: readonly Scenario[], ctx: BenchContext, brokerSummaries: string[]): Promise<void> {
  let run: RunSoFar = { commit: runCommit(), scenarios: {}, rows: [], data: {} };
  await warmUp(ctx);
  for (const s of chosen) {
    ctx.log(`${s.id}: ${s.title}`);
    const result = await runScenario(s, ctx, brokerSummaries);
    const scenario = { at: new Date().toISOString(), knobs: knobsSet(s.knobs) };
    run = {
      commit: run.commit,
      scenarios: { ...run.scenarios, [s.id]: scenario },
      rows: [...run.rows, ...result.rows],
      data: { ...run.data, [s.id]: result.data },
    };
    report(OUT, run);
  }
}

async function bench(chosen: readonly Scenario[]): Promise<void> {
  if (CPU_PROFILE) {
    rmSync(PROFILES, { recursive: true, force: true });
    process.env['NODE_OPTIONS'] = `${process.env['NODE_OPTIONS'] ?? ''} ${profileOptions(PROFILES)}`.trim();
  }
  const perf = PERF ? recordPerf() : undefined;
  const brokerSummaries: string[] = [];
  const c = benchStack();
  let watcher: ServiceProcess | undefined;
  const cleanUp = async (): Promise<void> => {
    // Stopped gracefully first: a profiled service writes its profile on exit, which SIGKILL would skip.
    await watcher?.stop();
    await stopAllServices();
    await down(c, { purge: true });
    await perf?.stop();
  };
  const interrupted = onInterrupt(cleanUp, (line) => console.error(`[bench] ${line}`));
  try {
    const started = await startBench(c);
    watcher = started.watcher;
    const ctx: BenchContext = {
      e: started.e,
      stack: c,
      kube: started.kube,
      runId: `b${Date.now().toString(36)}`,
      out: OUT,
      log: (line) => console.error(`[bench] ${line}`),
    };
    await runAll(chosen, ctx, brokerSummaries);
  } finally {
    interrupted();
    await cleanUp();
  }
  if (CPU_PROFILE) console.log(`\nCPU profiles (${PROFILES}):\n${summarizeProfiles(PROFILES)}`);
  if (perf) console.log(`\nOn-CPU samples (perf, ${PERF_DIR}):\n${await summarizePerf(PERF_DIR)}`);
  if (brokerSummaries.length > 0) console.log(`\nBroker profiles:\n${brokerSummaries.join('\n')}`);
}

/** recordPerf starts perf over the machine, the services to be started with their JavaScript named for it. */
function recordPerf(): PerfRecording {
  rmSync(PERF_DIR, { recursive: true, force: true });
  mkdirSync(PERF_DIR, { recursive: true });
  process.env['NODE_OPTIONS'] = `${process.env['NODE_OPTIONS'] ?? ''} ${PERF_NODE_OPTIONS}`.trim();
  return startPerf(PERF_DIR);
}

/**
 * runScenario runs one scenario; with BENCH_BROKER_PROFILE=1 the broker is recorded around it (bench/lib/broker-profile.ts)
 * and the recording's summary kept for the end of the run.
 */
async function runScenario(s: Scenario, ctx: BenchContext, summaries: string[]): Promise<ScenarioResult> {
  if (!BROKER_PROFILE) return s.run(ctx);
  mkdirSync(PROFILES, { recursive: true });
  const profile = await startBrokerProfile(stackPids(ctx.e, ['kafka'])['kafka'] ?? 0, s.id, PROFILES);
  try {
    return await s.run(ctx);
  } finally {
    summaries.push(await profile.stop());
  }
}

const argv = process.argv.slice(2);
const all = await allScenarios();
if (argv.includes('--list')) console.log(formatList(all, Object.values(RUN)));
else if (argv.includes('--figures-from')) figuresFrom(flagValue(argv, '--figures-from') ?? join(OUT, 'bench.json'));
else await bench(chooseScenarios(all, (flagValue(argv, '--only') ?? '').split(',').filter(Boolean)));
