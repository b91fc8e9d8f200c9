import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot, partDir } from './paths.ts';
import { openLog } from './sh.ts';
import type { WriteStream } from 'node:fs';

/** Recipe builds one part into an empty folder; it may write to the log it is given. */
export type Recipe = {
  readonly part: string;
  readonly version: string;
  build(dir: string, log: WriteStream): Promise<void>;
};

/** BuildError carries the path of the failed build's log and its last lines. */
export class BuildError extends Error {}

const MARKER = '.complete';
const TAIL_LINES = 25;

/**
 * obtain returns the cache folder of a recipe's part, building it first when it is missing. A folder
 * without the completion marker is what a killed build left behind: it is removed and built again.
 */
export async function obtain(recipe: Recipe, say: (line: string) => void): Promise<string> {
  const dir = partDir(recipe.part, recipe.version);
  if (existsSync(join(dir, MARKER))) return dir;
  if (existsSync(dir)) {
    say(`${recipe.part} ${recipe.version}: half-filled cache at ${dir} (an interrupted build): redoing it`);
    rmSync(dir, { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true });
  const logPath = join(cacheRoot(), 'logs', `${recipe.part}-${recipe.version}.log`);
  mkdirSync(join(cacheRoot(), 'logs'), { recursive: true });
  const log = openLog(logPath);
  const started = Date.now();
  say(`${recipe.part} ${recipe.version}: building (log: ${logPath})`);
  const ticker = setInterval(() => say(`${recipe.part}: still building, ${elapsed(started)}`), 30_000);
  try {
    await recipe.build(dir, log);
  } catch (err) {
    await closeLog(log);
    throw new BuildError(
      `${recipe.part} ${recipe.version} failed to build: ${String(err)}\n` +
        `log: ${logPath}\n--- last lines ---\n${lastLines(logPath, TAIL_LINES)}`,
    );
  } finally {
    clearInterval(ticker);
  }
  await closeLog(log);
  writeFileSync(join(dir, MARKER), `${new Date().toISOString()} ${elapsed(started)}\n`);
  say(`${recipe.part} ${recipe.version}: built in ${elapsed(started)}`);
  return dir;
}

function elapsed(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(0)} s`;
}

function closeLog(log: WriteStream): Promise<void> {
  return new Promise((resolve) => log.end(resolve));
}

function lastLines(path: string, n: number): string {
  if (!existsSync(path)) return '(no log written)';
  return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-n).join('\n');
}
