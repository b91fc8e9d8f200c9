import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { stackConfig, type StackConfig } from './config.ts';
import { down, status, up } from './stack.ts';
import { controlParts, dataParts } from './parts.ts';
import { locateAll } from './obtain-all.ts';
import { showLogs } from './logs.ts';
import { runSystem } from './run.ts';
import { formatEndpoints, stackEndpoints } from './endpoints.ts';
import { serviceParts } from './services.ts';
import { parseTailOptions } from '@kcm-bus/tools/tail-options.ts';
import { tail } from '@kcm-bus/tools/tail.ts';
import { runHistory } from '@kcm-bus/tools/history.ts';
import { runTrace } from '@kcm-bus/tools/trace.ts';
import { lag, parseLagOptions } from '@kcm-bus/tools/lag.ts';
import { replayCommand } from './replay-command.ts';

const USAGE = `usage: kcm-bus <command>
  run                       the local stack and every kcm-bus service; Ctrl-C stops everything
  tail TOPIC [--from-beginning] [--follow] [--key KEY] [--since TIME|AGE]
                            a kcm-bus topic as JSON lines, decoded with the registry's schemas
  history KIND NAMESPACE/NAME [--json]
                            every version of one object in the audit window, as diffs
  trace KIND NAMESPACE/NAME [--json]
                            the mutations of one object, their outcomes and the inputs that caused them
  lag [--json] [--group PREFIX]
                            each kcm-bus consumer group's lag per partition, and its inputs' watermark age
  replay --controller NAME --from TIME|AGE [--to TIME|AGE] [--json]
                            this build of a controller over a window of history, beside what the deployed one did
  stack up                  obtain (build what the cache lacks) and start the local stack
  stack down [--purge]      stop everything the stack started (--purge also deletes its state)
  stack status              each part's pid and readiness
  stack logs [PART] [-f]    a part's log (all parts' last lines without PART)
options: --profile NAME (default: dev; the test run uses "test" on other ports)
environment: KCM_BUS_CACHE, KCM_BUS_PORT_BASE, KCM_BUS_PORT_<NAME>, KCM_BUS_NODES, KCM_BUS_KCM_CONTROLLERS`;

/** main dispatches the kcm-bus command line. */
export async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === 'tail') return tailCommand(argv.slice(1));
  if (argv[0] === 'history') return runHistory(argv.slice(1), process.env, console.log, console.error);
  if (argv[0] === 'trace') return runTrace(argv.slice(1), process.env, console.log, console.error);
  if (argv[0] === 'replay') return replayCommand(argv.slice(1));
  if (argv[0] === 'lag') return lag(parseLagOptions(argv.slice(1), process.env), (text) => console.log(text)).then(() => 0);
  const { values, positionals } = parseArgs({
    args: [...argv], allowPositionals: true,
    options: { profile: { type: 'string' }, purge: { type: 'boolean' }, follow: { type: 'boolean', short: 'f' }, help: { type: 'boolean', short: 'h' } },
  });
  const c = stackConfig(values.profile ?? process.env['KCM_BUS_PROFILE'] ?? 'dev');
  const [command, sub, part] = positionals;
  if (values.help || command === undefined) return usage(0);
  if (command === 'run') return runSystem(c, say());
  if (command !== 'stack') return usage(2);
  switch (sub) {
    case 'up': return stackUp(c);
    case 'down': return report(`stopped: ${(await down(c, { purge: values.purge ?? false })).join(', ') || 'nothing was running'}`);
    case 'status': return stackStatus(c);
    case 'logs': return showLogs(c, part, values.follow ?? false);
    default: return usage(2);
  }
}

async function tailCommand(argv: readonly string[]): Promise<number> {
  await tail(parseTailOptions(argv, process.env, Date.now()), (line) => console.log(line));
  return 0;
}

function usage(code: number): number {
  (code === 0 ? console.log : console.error)(USAGE);
  return code;
}

function report(line: string): number {
  console.log(line);
  return 0;
}

/** say prints progress lines with the seconds since the command started. */
export function say(): (line: string) => void {
  const started = Date.now();
  return (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`);
}

async function stackUp(c: StackConfig): Promise<number> {
  console.log(formatEndpoints(await up(c, say())));
  return 0;
}

async function stackStatus(c: StackConfig): Promise<number> {
  const parts = [...dataParts(c, locateAll()), ...controlParts(c, locateAll()), ...serviceParts(c, stackEndpoints(c))];
  let total = 0;
  for (const s of await status(c, parts)) {
    const rss = s.pid === undefined ? 0 : rssMegabytes(s.pid);
    total += rss;
    const state = s.pid === undefined ? 'stopped' : `pid ${s.pid}`.padEnd(12) + (s.ready ? 'ready    ' : 'NOT READY') + `${rss.toFixed(0).padStart(6)} MB RSS`;
    console.log(`${s.name.padEnd(24)} ${state}`);
  }
  console.log(`${'total'.padEnd(24)} ${''.padEnd(21)}${total.toFixed(0).padStart(6)} MB RSS`);
  return 0;
}

/** rssMegabytes reads a process's resident set from /proc (0 when it is gone). */
function rssMegabytes(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb ?? 0) / 1024;
  } catch {
    return 0;
  }
}
