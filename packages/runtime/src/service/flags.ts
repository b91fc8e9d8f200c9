import { parseArgs } from 'node:util';
import { parseGoDuration } from './go-duration.ts';

/**
 * FlagSpec declares one flag: upstream's name where upstream has one, its environment variable and default. A
 * `duration` flag is spelt as Go's (`5s`, `1m0s`, as upstream's duration flags are) and read in milliseconds.
 */
export type FlagSpec = {
  readonly name: string;
  readonly type: 'string' | 'number' | 'boolean' | 'list' | 'duration';
  readonly default: string | number | boolean | readonly string[];
  readonly help: string;
  /** short is a one-letter alias: `f` for `-f`. */
  readonly short?: string;
  /** env false reads the flag from the command line only: a command's own switch (`--json`) no exported variable turns on. */
  readonly env?: false;
};

/** FlagValues are parsed flags by name. */
export type FlagValues = Readonly<Record<string, string | number | boolean | readonly string[]>>;

/** FlagError says which flag, variable or argument of a command line is wrong and how. */
export class FlagError extends Error {}

/** envName is a flag's environment variable: `--kube-api-qps` → `KCM_BUS_KUBE_API_QPS`. */
export function envName(flag: string): string {
  return `KCM_BUS_${flag.replace(/-/g, '_').toUpperCase()}`;
}

/**
 * parseFlags reads flags from the command line, then from the environment (KCM_BUS_<NAME>), then the default.
 * An unknown flag or a value of the wrong type fails with a FlagError naming it.
 */
export function parseFlags(specs: readonly FlagSpec[], argv: readonly string[], env: NodeJS.ProcessEnv): FlagValues {
  let parsed: RawArgs;
  try {
    parsed = rawArgs(specs, argv, { strict: true, allowPositionals: false });
  } catch (err) {
    throw new FlagError(`${(err as Error).message}\n${usage(specs)}`);
  }
  return resolveFlags(specs, parsed.values, env);
}

/** CommandLine is a command's arguments as given (argv), its flags read as parseFlags reads them, and its positionals. */
export type CommandLine = {
  readonly argv: readonly string[];
  readonly flags: FlagReader;
  readonly positionals: readonly string[];
};

/**
 * parseCommandLine is parseFlags for a command that also takes positional arguments, flags and positionals in any
 * order (`trace pod web-x --json`), `--` ending the flags. With others 'pass' it reads only its own flags and leaves
 * the rest to the command it passes argv on to (kcm-bus replay: the controller's service), which checks them.
 */
export function parseCommandLine(
  specs: readonly FlagSpec[],
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  others: 'refuse' | 'pass' = 'refuse',
): CommandLine {
  const { values, positionals } = rawArgs(specs, argv, { strict: others === 'refuse', allowPositionals: true });
  return { argv, flags: flagReader(resolveFlags(specs, values, env)), positionals };
}

/** wantsHelp says whether a command line asks for help (`--help` or `-h` before any `--`), answered before all else. */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

type RawArgs = {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly positionals: readonly string[];
};

/** rawArgs splits argv with node:util parseArgs; a malformed command line is a FlagError. */
function rawArgs(
  specs: readonly FlagSpec[],
  argv: readonly string[],
  mode: { strict: boolean; allowPositionals: boolean },
): RawArgs {
  try {
    return parseArgs({ args: [...argv], options: argOptions(specs), ...mode });
  } catch (err) {
    throw new FlagError((err as Error).message);
  }
}

/** argOptions are flags as node:util parseArgs options. */
function argOptions(
  specs: readonly FlagSpec[],
): Record<string, { readonly type: 'boolean' | 'string'; readonly short?: string }> {
  return Object.fromEntries(
    specs.map((s) => [
      s.name,
      {
        type: s.type === 'boolean' ? ('boolean' as const) : ('string' as const),
        ...(s.short ? { short: s.short } : {}),
      },
    ]),
  );
}

/**
 * resolveFlags reads each flag from the values parsed off the command line (by name), then the environment
 * (KCM_BUS_<NAME>, unless the flag is command line only), then the default, with the same checks.
 */
function resolveFlags(
  specs: readonly FlagSpec[],
  parsed: Readonly<Record<string, string | boolean | undefined>>,
  env: NodeJS.ProcessEnv,
): FlagValues {
  return Object.fromEntries(
    specs.map((s) => [s.name, valueOf(s, parsed[s.name] ?? (s.env === false ? undefined : env[envName(s.name)]))]),
  );
}

function valueOf(spec: FlagSpec, raw: string | boolean | undefined): FlagValues[string] {
  if (raw === undefined) return spec.type === 'duration' ? valueOf(spec, String(spec.default)) : spec.default;
  if (typeof raw === 'boolean') {
    if (spec.type !== 'boolean') throw new FlagError(`--${spec.name} needs a value`);
    return raw;
  }
  switch (spec.type) {
    case 'duration':
      try {
        return parseGoDuration(raw);
      } catch (err) {
        throw new FlagError(`${named(spec)}: ${(err as Error).message}`);
      }
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n))
        throw new FlagError(`${named(spec)}: ${JSON.stringify(raw)} is not a number`);
      return n;
    }
    case 'boolean':
      if (raw !== 'true' && raw !== 'false')
        throw new FlagError(`${named(spec)}: ${JSON.stringify(raw)} is not true or false`);
      return raw === 'true';
    case 'list':
      return raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    default:
      return raw;
  }
}

/** named names a flag in an error: `--name (KCM_BUS_NAME)`, the variable only where the flag reads one. */
function named(spec: FlagSpec): string {
  return spec.env === false ? `--${spec.name}` : `--${spec.name} (${envName(spec.name)})`;
}

/** usage lists every flag with its short alias, variable, default and help. */
export function usage(specs: readonly FlagSpec[]): string {
  return specs
    .map((s) => {
      const names = s.short ? `-${s.short}, --${s.name}` : `--${s.name}`;
      const variable = s.env === false ? '' : `${envName(s.name)}, `;
      return `  ${names} (${variable}default ${JSON.stringify(s.default)})\n      ${s.help}`;
    })
    .join('\n');
}

/** FlagReader reads parsed flags with their types. */
export type FlagReader = {
  readonly string: (name: string) => string;
  readonly number: (name: string) => number;
  /** duration reads a `duration` flag in milliseconds. */
  readonly duration: (name: string) => number;
  readonly boolean: (name: string) => boolean;
  readonly list: (name: string) => readonly string[];
};

/** flagReader wraps parsed values; asking for an undeclared flag or the wrong type is a programming error. */
export function flagReader(values: FlagValues): FlagReader {
  const get = <T>(name: string, is: (v: unknown) => v is T): T => {
    const v = values[name];
    if (!is(v)) throw new Error(`flag --${name} is not declared with this type`);
    return v;
  };
  return {
    string: (n) => get(n, (v): v is string => typeof v === 'string'),
    number: (n) => get(n, (v): v is number => typeof v === 'number'),
    duration: (n) => get(n, (v): v is number => typeof v === 'number'),
    boolean: (n) => get(n, (v): v is boolean => typeof v === 'boolean'),
    list: (n) => get(n, (v): v is readonly string[] => Array.isArray(v)),
  };
}
