/** Level is a log line's severity. */
export type Level = 'debug' | 'info' | 'warn' | 'error';

/** Logger writes one JSON object per line: ts, level, logger, msg and the fields given. */
export interface Logger {
  debug(msg: string, fields?: Readonly<Record<string, unknown>>): void;
  info(msg: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(msg: string, fields?: Readonly<Record<string, unknown>>): void;
  error(msg: string, fields?: Readonly<Record<string, unknown>>): void;
  /** child adds fields (e.g. the kind a loop serves) to every line it writes. */
  child(fields: Readonly<Record<string, unknown>>): Logger;
}

const RANK: Readonly<Record<Level, number>> = { debug: 0, info: 1, warn: 2, error: 3 };

/**
 * jsonLogger is the logger of every service: JSON lines on a sink (stdout by default), so logs are read by
 * machines first. Errors are flattened to their message and stack.
 */
export function jsonLogger(
  name: string,
  opts: {
    readonly level?: Level;
    readonly sink?: (line: string) => void;
    readonly fields?: Readonly<Record<string, unknown>>;
  } = {},
): Logger {
  const min = RANK[opts.level ?? 'info'];
  const sink = opts.sink ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const base = opts.fields ?? {};
  const write =
    (level: Level) =>
    (msg: string, fields: Readonly<Record<string, unknown>> = {}): void => {
      if (RANK[level] < min) return;
      sink(JSON.stringify({ ts: new Date().toISOString(), level, logger: name, msg, ...base, ...flatten(fields) }));
    };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (fields) => jsonLogger(name, { ...opts, fields: { ...base, ...fields } }),
  };
}

function flatten(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [k, v instanceof Error ? { message: v.message, stack: v.stack } : v]),
  );
}
