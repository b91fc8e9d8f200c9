import { FlagError, parseCommandLine, usage, type CommandLine, type FlagSpec } from '@kcm-bus/runtime/service/index.ts';

/** EnvSetting is an environment variable a command reads that is no flag's (the stack's cache and ports). */
export type EnvSetting = { readonly name: string; readonly default: string; readonly help: string };

/**
 * Command is one kcm-bus subcommand: its name (`tail`, `stack up`), what follows the name, what it does, its flags
 * (the runtime's FlagSpecs, so a tool and a service read --kafka-brokers alike) and what it runs. The CLI reads
 * every command's line the one way (commandLine) and answers --help from this (commandHelp).
 */
export type Command = {
  readonly name: string;
  /** synopsis is the usage after the name: positional arguments and the command's own flags. */
  readonly synopsis: string;
  /** summary is one line on what the command does, for the list of commands. */
  readonly summary: string;
  /** about says more in the command's own help: what it prints, its exit status. */
  readonly about?: string;
  /** positionals are how many positional arguments the command takes: at least, at most. */
  readonly positionals: readonly [number, number];
  readonly flags: readonly FlagSpec[];
  readonly environment?: readonly EnvSetting[];
  /**
   * passOn: the command passes its arguments on to another (kcm-bus replay: the controller's service), which checks
   * the flags and positionals it does not know; it answers --help itself.
   */
  readonly passOn?: true;
  /** run runs the command; a FlagError it throws is a wrong command line (exit status 2, with the help). */
  readonly run: (line: CommandLine, env: NodeJS.ProcessEnv) => Promise<number>;
};

/** commandLine reads a command's arguments (after its name) with its flags, and checks how many positionals it got. */
export function commandLine(c: Command, args: readonly string[], env: NodeJS.ProcessEnv): CommandLine {
  const line = parseCommandLine(c.flags, args, env, c.passOn ? 'pass' : 'refuse');
  if (c.passOn) return line;
  const [min, max] = c.positionals;
  if (line.positionals.length > max)
    throw new FlagError(`unexpected argument ${JSON.stringify(line.positionals[max])}`);
  if (line.positionals.length < min) throw new FlagError(`missing arguments: kcm-bus ${c.name} ${c.synopsis}`);
  return line;
}

/**
 * commandHelp is a command's --help: its usage, what it does, every flag with its variable and default (usage, as a
 * service's --help lists them), and the variables it reads that are no flag's.
 */
export function commandHelp(c: Command): string {
  return [
    `usage: kcm-bus ${[c.name, c.synopsis, c.flags.length > 0 ? '[FLAGS]' : ''].filter(Boolean).join(' ')}`,
    `  ${c.summary}.${c.about === undefined ? '' : ` ${c.about}`}`,
    'flags (a flag not given is read from the variable named beside it, else is its default; -h, --help prints this):',
    usage(c.flags),
    ...(c.environment === undefined
      ? []
      : ['environment:', ...c.environment.map((e) => `  ${e.name} (default ${e.default})\n      ${e.help}`)]),
  ].join('\n');
}

/** LISTING_WIDTH is where a command's summary starts in the list of commands. */
const LISTING_WIDTH = 28;

/** commandList lists commands one a line (two when the synopsis is long): name and synopsis, then the summary. */
export function commandList(commands: readonly Command[]): string {
  return commands
    .map((c) => {
      const head = `  ${c.name}${c.synopsis ? ` ${c.synopsis}` : ''}`;
      return head.length < LISTING_WIDTH
        ? `${head.padEnd(LISTING_WIDTH)}${c.summary}`
        : `${head}\n${' '.repeat(LISTING_WIDTH)}${c.summary}`;
    })
    .join('\n');
}
