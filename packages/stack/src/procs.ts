import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Launch is one long-running process of the stack. */
export type Launch = {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
};

/** pidFile is where the pid of a started part is kept, so `down` can stop it from another process. */
export function pidFile(dir: string, name: string): string {
  return join(dir, 'pids', `${name}.pid`);
}

/** logFile is where a part's output goes. */
export function logFile(dir: string, name: string): string {
  return join(dir, 'logs', `${name}.log`);
}

/** startProcess starts a part in its own process group, detached from ours, and records its pid. */
export function startProcess(dir: string, launch: Launch): number {
  mkdirSync(join(dir, 'pids'), { recursive: true });
  mkdirSync(join(dir, 'logs'), { recursive: true });
  const out = openSync(logFile(dir, launch.name), 'a');
  const child = spawn(launch.command, launch.args, {
    cwd: launch.cwd ?? dir,
    env: launch.env ?? process.env,
    detached: true,
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  if (child.pid === undefined) throw new Error(`${launch.name}: could not start ${launch.command}`);
  child.unref();
  writeFileSync(pidFile(dir, launch.name), `${child.pid}\n`);
  return child.pid;
}

/** runningPid returns the pid recorded for a part when that process is still alive. */
export function runningPid(dir: string, name: string): number | undefined {
  const file = pidFile(dir, name);
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : undefined;
}

/** isAlive tells whether a process exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return !/^\d+ \(.*\) Z/.test(stat);
}

/**
 * stopProcess stops a part by its recorded pid: SIGTERM to its process group, then SIGKILL after the
 * grace period. It returns false when nothing was running. The pid file is removed either way.
 */
export async function stopProcess(dir: string, name: string, graceMs = 15_000): Promise<boolean> {
  const pid = runningPid(dir, name);
  rmSync(pidFile(dir, name), { force: true });
  if (pid === undefined) return false;
  signalGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  if (isAlive(pid)) signalGroup(pid, 'SIGKILL');
  while (isAlive(pid)) await sleep(50);
  return true;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** logTail returns the last lines a part wrote, for error messages. */
export function logTail(dir: string, name: string, lines = 20): string {
  const file = logFile(dir, name);
  if (!existsSync(file)) return '(no output)';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}
