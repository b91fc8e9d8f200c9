import { readFileSync } from 'node:fs';
import { FlagError, wantsHelp, type CommandLine, type FlagSpec } from '@kcm-bus/runtime/service/index.ts';
import { commandHelp, commandLine, commandList, type Command, type EnvSetting } from '@kcm-bus/tools/command.ts';
import { HISTORY_COMMAND } from '@kcm-bus/tools/history.ts';
import { LAG_COMMAND } from '@kcm-bus/tools/lag.ts';
import { TAIL_COMMAND } from '@kcm-bus/tools/tail.ts';
import { TRACE_COMMAND } from '@kcm-bus/tools/trace.ts';
import { BESIDE_KCM_BUS, DEFAULT_PORT_BASE, stackConfig, type StackConfig } from './config.ts';
import { formatEndpoints, stackEndpoints } from './endpoints.ts';
import { showLogs } from './logs.ts';
import { locateAll } from './obtain-all.ts';
import { controlParts, dataParts } from './parts.ts';
import { REPLAY_COMMAND } from './replay-command.ts';
import { runSystem } from './run.ts';
import { serviceParts } from './services.ts';
import { down, status, up } from './stack.ts';
import { KAFKA_VERSION_ENV } from './kafka-versions.ts';

/** PROFILE is the flag of every command on the local stack. */
const PROFILE: FlagSpec = {
  name: 'profile',
  type: 'string',
  default: 'dev',
  help: 'Which local stack: its ports, state and nodes ("test" is npm test\'s, on other ports; "cluster" has three Kafka nodes and two replicas of each reconciler and of the writer).',
};

/** STACK_ENVIRONMENT is what the local stack's commands read besides their flags (stackConfig, paths.ts). */
const STACK_ENVIRONMENT: readonly EnvSetting[] = [
  {
    name: 'KCM_BUS_CACHE',
    default: '$XDG_CACHE_HOME/kcm-bus, else ~/.cache/kcm-bus',
    help: 'The parts obtained (built or downloaded), by part and version.',
  },
  {
    name: 'KCM_BUS_RUN_DIR',
    default: '$KCM_BUS_CACHE/run/PROFILE',
    help: "The stack's state: data, certificates, kubeconfigs, pids and logs.",
  },
  {
    name: 'KCM_BUS_PORT_BASE',
    default: `${Object.entries(DEFAULT_PORT_BASE)
      .map(([p, n]) => `${n} (${p})`)
      .join(', ')}, else 17300`,
    help: "The first of the stack's loopback ports; each part's is the next.",
  },
  {
    name: 'KCM_BUS_PORT_<PART>',
    default: "the base plus the part's offset",
    help: "One part's port, PART in upper snake case: KCM_BUS_PORT_KAFKA, KCM_BUS_PORT_RECONCILER_RC.",
  },
  { name: 'KCM_BUS_NODES', default: '2 (dev, cluster), else 0', help: 'How many kwok nodes `stack up` registers.' },
  {
    name: 'KCM_BUS_KCM_CONTROLLERS',
    default: BESIDE_KCM_BUS,
    help: "The --controllers of the stack's kube-controller-manager: all but those kcm-bus replaces.",
  },
  { name: 'KCM_BUS_SCHEDULER_QPS', default: '50', help: "kube-scheduler's client QPS (burst twice that)." },
  {
    name: 'KCM_BUS_KAFKA_NODES',
    default: '3 (cluster), else 1',
    help: "KRaft nodes of the stack's Kafka: 1, or 3 (every topic at replication factor 3, min.insync.replicas 2).",
  },
  {
    name: 'KCM_BUS_SERVICE_REPLICAS',
    default: '2 (cluster), else 1',
    help: "`run`'s replicas of each reconciler and of the writer: 1 or 2 (the watcher is one).",
  },
  KAFKA_VERSION_ENV,
];

/** StackCommand is a command on the local stack --profile names: it runs on that stack's StackConfig. */
type StackCommand = Pick<Command, 'name' | 'summary'> &
  Partial<Pick<Command, 'synopsis' | 'positionals' | 'flags'>> & {
    readonly run: (c: StackConfig, line: CommandLine) => Promise<number>;
  };

/** onStack is a StackCommand as a Command: no positionals unless it says, --profile, and the stack's environment. */
function onStack(s: StackCommand): Command {
  return {
    synopsis: '',
    positionals: [0, 0],
    ...s,
    flags: [...(s.flags ?? []), PROFILE],
    environment: STACK_ENVIRONMENT,
    run: (line, env) => s.run(stackConfig(line.flags.string('profile'), env), line),
  };
}

const RUN = onStack({
  name: 'run',
  summary: 'the local stack and every kcm-bus service; Ctrl-C stops everything',
  run: (c) => runSystem(c, say()),
});
const STACK_UP = onStack({
  name: 'stack up',
  summary: 'obtain (build what the cache lacks) and start the local stack',
  run: async (c) => print(formatEndpoints(await up(c, say()))),
});
const STACK_DOWN = onStack({
  name: 'stack down',
  synopsis: '[--purge]',
  summary: 'stop everything the stack started (--purge also deletes its state)',
  flags: [
    {
      name: 'purge',
      type: 'boolean',
      default: false,
      env: false,
      help: "Also delete the stack's state (its run folder).",
    },
  ],
  run: async (c, line) =>
    print(`stopped: ${(await down(c, { purge: line.flags.boolean('purge') })).join(', ') || 'nothing was running'}`),
});
const STACK_STATUS = onStack({
  name: 'stack status',
  summary: "each part's pid, readiness and memory",
  run: stackStatus,
});
const STACK_LOGS = onStack({
  name: 'stack logs',
  synopsis: '[PART] [-f]',
  positionals: [0, 1],
  summary: "a part's log (all parts' last lines without PART)",
  flags: [
    {
      name: 'follow',
      short: 'f',
      type: 'boolean',
      default: false,
      env: false,
      help: "Follow the part's log as it grows (tail -F).",
    },
  ],
  run: (c, line) => showLogs(c, line.positionals[0], line.flags.boolean('follow')),
});

/** COMMANDS are every kcm-bus subcommand, in the order the usage lists them. */
export const COMMANDS: readonly Command[] = [
  RUN,
  TAIL_COMMAND,
  HISTORY_COMMAND,
  TRACE_COMMAND,
  LAG_COMMAND,
  REPLAY_COMMAND,
  STACK_UP,
  STACK_DOWN,
  STACK_STATUS,
  STACK_LOGS,
];

/** USAGE is `kcm-bus help`: every command, and where to read more. */
const USAGE = `usage: kcm-bus COMMAND [ARGUMENTS] [FLAGS]
${commandList(COMMANDS)}
  help [COMMAND]            this list, or a command's usage, flags, their variables and defaults (or: COMMAND --help)
tail, history, trace, lag and replay reach Kafka and the schema registry as the services do: --kafka-brokers
(KCM_BUS_KAFKA_BROKERS), --schema-registry-url (KCM_BUS_SCHEMA_REGISTRY_URL) and the --kafka-tls/--kafka-sasl-* flags;
the local dev stack's by default. As a kubectl plugin (kubectl-kcm_bus on PATH): kubectl kcm-bus trace pod NAME.`;

/**
 * main runs the kcm-bus command line and returns its exit status: 0 done (and for --help, -h and `help`), 2 a wrong
 * command line (no command, an unknown command, flag or argument: said on stderr with the usage), else the command's.
 */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [first] = argv;
  if (first === 'help') return help(argv.slice(1));
  if (first === undefined) return refuse('kcm-bus: no command given', USAGE);
  if (first === '--help' || first === '-h') return print(USAGE);
  const found = commandOf(argv);
  if (found !== undefined) return invoke(found.command, found.args, env);
  const group = groupUsage(first);
  if (group !== undefined && (argv.length === 1 || wantsHelp(argv.slice(1, 2)))) {
    return argv.length === 1 ? refuse(`kcm-bus ${first}: no ${first} command given`, group) : print(group);
  }
  const wrong = first.startsWith('-')
    ? `the command comes first, then its flags (got ${first})`
    : `unknown command: ${argv.slice(0, group ? 2 : 1).join(' ')}`;
  return refuse(`kcm-bus: ${wrong}`, group ?? USAGE);
}

/** invoke answers a command's --help, or reads its command line and runs it; a wrong command line exits 2 with its help. */
async function invoke(c: Command, args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  if (wantsHelp(args) && !c.passOn) return print(commandHelp(c));
  try {
    return await c.run(commandLine(c, args, env), env);
  } catch (err) {
    if (err instanceof FlagError) return refuse(`kcm-bus ${c.name}: ${err.message}`, commandHelp(c));
    throw err;
  }
}

/** help is `kcm-bus help [COMMAND]`: the usage, a group's (`help stack`) or a command's help. */
function help(words: readonly string[]): number {
  if (words.length === 0) return print(USAGE);
  const found = commandOf(words);
  if (found !== undefined && found.args.length === 0) return print(commandHelp(found.command));
  const group = words.length === 1 ? groupUsage(words[0]!) : undefined;
  return group === undefined ? refuse(`kcm-bus help: no command ${words.join(' ')}`, USAGE) : print(group);
}

/** commandOf finds the command argv's first words name (`tail`, `stack up`), and the arguments after its name. */
function commandOf(
  argv: readonly string[],
): { readonly command: Command; readonly args: readonly string[] } | undefined {
  for (const command of COMMANDS) {
    const words = command.name.split(' ');
    if (words.every((w, i) => argv[i] === w)) return { command, args: argv.slice(words.length) };
  }
  return undefined;
}

/** groupUsage lists the commands under a word that is no command itself (`stack`), if there are any. */
function groupUsage(word: string): string | undefined {
  const group = COMMANDS.filter((c) => c.name.startsWith(`${word} `));
  return group.length === 0 ? undefined : `usage: kcm-bus ${word} COMMAND [FLAGS]\n${commandList(group)}`;
}

function print(text: string): number {
  console.log(text);
  return 0;
}

function refuse(why: string, usage: string): number {
  console.error(`${why}\n${usage}`);
  return 2;
}

/** say prints progress lines with the seconds since the command started. */
export function say(): (line: string) => void {
  const started = Date.now();
  return (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`);
}

async function stackStatus(c: StackConfig): Promise<number> {
  const parts = [...dataParts(c, locateAll()), ...controlParts(c, locateAll()), ...serviceParts(c, stackEndpoints(c))];
  let total = 0;
  for (const s of await status(c, parts)) {
    const rss = s.pid === undefined ? 0 : rssMegabytes(s.pid);
    total += rss;
    const state =
      s.pid === undefined
        ? 'stopped'
        : `pid ${s.pid}`.padEnd(12) + (s.ready ? 'ready    ' : 'NOT READY') + `${rss.toFixed(0).padStart(6)} MB RSS`;
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
