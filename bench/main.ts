/**
 * `npm run bench [-- --only s1,s8]` — kcm-bus side by side with upstream kube-controller-manager, in one run on one
 * machine: brings up its own stack (profile "bench" or KCM_BUS_BENCH_PROFILE, ports 17600+ or KCM_BUS_PORT_BASE, 4 kwok nodes, kube-scheduler at 1000 qps so
 * binding is never the bottleneck), starts the watcher, runs every bench/sN-*.ts scenario in turn (each starts and
 * stops the systems it compares), prints one table and writes bench/out/bench.json with every figure and the flag
 * values in effect. Everything it started is stopped at the end, also on failure.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { BESIDE_KCM_BUS, stackConfig } from '@kcm-bus/stack/config.ts';
import { down, up } from '@kcm-bus/stack/stack.ts';
import { type ServiceProcess, startService, stopAllServices } from '@kcm-bus/harness/processes.ts';
import { rawKube, untaintWhenReady } from '@kcm-bus/harness/kube.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { startBrokerProfile } from './broker-profile.ts';
import { profileOptions, summarizeProfiles } from './cpu-profile.ts';
import { stackPids } from './cpu.ts';
import { KAFKA_AUTH, watcherFlags } from './systems.ts';
import { formatTable } from './table.ts';
import { warmUp } from './warm-up.ts';
import type { BenchContext, Row, Scenario, ScenarioResult } from './scenario.ts';

const HERE = import.meta.dirname;
const OUT = resolve(HERE, 'out');
const PROFILES = join(OUT, 'profiles');
const NODES = 4;
const SCHEDULER_QPS = 1000;

async function scenarios(only: readonly string[]): Promise<Scenario[]> {
  const files = readdirSync(HERE).filter((f) => /^s\d+-.*\.ts$/.test(f)).sort((a, b) => parseInt(a.slice(1), 10) - parseInt(b.slice(1), 10));
  const all = await Promise.all([...files, 'chaos.ts'].map(async (f) => ((await import(join(HERE, f))) as { scenario: Scenario }).scenario));
  const unknown = only.filter((id) => !all.some((s) => s.id === id));
  if (unknown.length > 0) throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${all.map((s) => s.id).join(', ')}`);
  return only.length === 0 ? all.filter((s) => !s.onlyWhenAsked) : all.filter((s) => only.includes(s.id));
}

/**
 * backgroundControllers is what the bench stack's own kube-controller-manager runs under both arms. By default
 * nothing (no process), so that no controller's work (the garbage collector's graph over 10,000 pods) shares the two
 * cores with the arms being measured, and no node lifecycle controller acts beside the one S5 measures; the bench
 * makes its kwok nodes schedulable itself (untaintWhenReady). BENCH_BACKGROUND=full runs every controller kcm-bus
 * does not replace (BESIDE_KCM_BUS), as a cluster does: the upstream arm then runs the full set (that background plus
 * the controller it compares), and kcm-bus runs beside the same background. KCM_BUS_KCM_CONTROLLERS overrides both.
 */
function backgroundControllers(env: NodeJS.ProcessEnv): string {
  if (env['KCM_BUS_KCM_CONTROLLERS'] !== undefined) return env['KCM_BUS_KCM_CONTROLLERS'];
  if (env['BENCH_BACKGROUND'] === 'full') return BESIDE_KCM_BUS;
  if (env['BENCH_BACKGROUND'] === undefined || env['BENCH_BACKGROUND'] === 'none') return '';
  throw new Error(`BENCH_BACKGROUND=${env['BENCH_BACKGROUND']}: none (the default) or full`);
}

function onlyFlag(argv: readonly string[]): string[] {
  const i = argv.indexOf('--only');
  return i < 0 ? [] : (argv[i + 1] ?? '').split(',').filter(Boolean);
}

async function main(): Promise<void> {
  const chosen = await scenarios(onlyFlag(process.argv.slice(2)));
  if (process.env['BENCH_CPU_PROFILE'] === '1') {
    rmSync(PROFILES, { recursive: true, force: true });
    process.env['NODE_OPTIONS'] = `${process.env['NODE_OPTIONS'] ?? ''} ${profileOptions(PROFILES)}`.trim();
  }
  const brokerSummaries: string[] = [];
  const c = stackConfig(process.env['KCM_BUS_BENCH_PROFILE'] ?? 'bench', { ...process.env, KCM_BUS_PORT_BASE: process.env['KCM_BUS_PORT_BASE'] ?? '17600', KCM_BUS_NODES: String(NODES), KCM_BUS_SCHEDULER_QPS: String(SCHEDULER_QPS),
    KCM_BUS_KCM_CONTROLLERS: backgroundControllers(process.env) });
  let watcher: ServiceProcess | undefined;
  try {
    const e = await up(c, (line) => console.error(line));
    const kube = rawKube(join(c.dir, 'endpoints.json'));
    await waitFor(`${NODES} kwok nodes`, async () => ((await kube('GET', '/api/v1/nodes'))['items'] as unknown[]).length >= NODES);
    for (const node of (await kube('GET', '/api/v1/nodes'))['items'] as { metadata: { name: string } }[]) await untaintWhenReady(kube, node.metadata.name);
    watcher = await startService('watcher', watcherFlags(e));
    const ctx: BenchContext = { e, stack: c, kube, runId: `b${Date.now().toString(36)}`, out: OUT, log: (line) => console.error(`[bench] ${line}`) };
    const rows: Row[] = [];
    const data: Record<string, unknown> = {};
    await warmUp(ctx);
    for (const s of chosen) {
      ctx.log(`${s.id}: ${s.title}`);
      const result = await runScenario(s, ctx, brokerSummaries);
      rows.push(...result.rows);
      data[s.id] = result.data;
      report(rows, data);
    }
  } finally {
    // Stopped gracefully first: a profiled service writes its profile on exit, which SIGKILL would skip.
    await watcher?.stop();
    await stopAllServices();
    await down(c, { purge: true });
  }
  if (process.env['BENCH_CPU_PROFILE'] === '1') console.log(`\nCPU profiles (${PROFILES}):\n${summarizeProfiles(PROFILES)}`);
  if (brokerSummaries.length > 0) console.log(`\nBroker profiles:\n${brokerSummaries.join('\n')}`);
}

/**
 * runScenario runs one scenario; with BENCH_BROKER_PROFILE=1 the broker is recorded around it (bench/broker-profile.ts)
 * and the recording's summary kept for the end of the run.
 */
async function runScenario(s: Scenario, ctx: BenchContext, summaries: string[]): Promise<ScenarioResult> {
  if (process.env['BENCH_BROKER_PROFILE'] !== '1') return s.run(ctx);
  mkdirSync(PROFILES, { recursive: true });
  const profile = await startBrokerProfile(stackPids(ctx.e, ['kafka'])['kafka'] ?? 0, s.id, PROFILES);
  try {
    return await s.run(ctx);
  } finally {
    summaries.push(await profile.stop());
  }
}

/** report prints the table so far and rewrites bench/out/bench.json (a failing later scenario keeps the earlier figures). */
function report(rows: readonly Row[], data: Record<string, unknown>): void {
  const at = new Date().toISOString();
  const machine = { cores: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
  const background = backgroundControllers(process.env) || 'none';
  console.log(`\nkcm-bus vs upstream kube-controller-manager, ${at}, ${machine.cores} cores, background controllers: ${background === BESIDE_KCM_BUS ? 'every one kcm-bus does not replace (BENCH_BACKGROUND=full)' : background}, Kafka: ${KAFKA_AUTH ? 'TLS, SCRAM per service, ACLs (BENCH_KAFKA_AUTH=1)' : 'plaintext'}, \`npm run bench\`\n${formatTable(rows)}`);
  mkdirSync(OUT, { recursive: true });
  const sizes = Object.fromEntries(['BENCH_PODS', 'BENCH_STEPS', 'BENCH_S6_PODS', 'BENCH_S9_PODS'].map((k) => [k, process.env[k] ?? 'default']));
  const settings = { kwokNodes: NODES, schedulerQps: SCHEDULER_QPS, backgroundControllers: backgroundControllers(process.env), ...sizes };
  writeFileSync(join(OUT, 'bench.json'), `${JSON.stringify({ at, machine, settings, rows, data }, null, 2)}\n`);
}

await main();
