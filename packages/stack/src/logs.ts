import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { StackConfig } from './config.ts';
import { logFile, logTail } from './procs.ts';

/** showLogs prints one part's log (following it with -f), or the last lines of every part's log. */
export async function showLogs(c: StackConfig, part: string | undefined, follow: boolean): Promise<number> {
  const dir = join(c.dir, 'logs');
  const names = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.log'))
        .map((f) => f.slice(0, -4))
    : [];
  if (part === undefined) {
    for (const name of names) console.log(`==> ${logFile(c.dir, name)} <==\n${logTail(c.dir, name, 10)}\n`);
    return 0;
  }
  if (!names.includes(part)) {
    console.error(`no log for ${part}; parts with logs: ${names.join(', ') || 'none'}`);
    return 2;
  }
  const tail = spawn('tail', ['-n', '100', ...(follow ? ['-F'] : []), logFile(c.dir, part)], { stdio: 'inherit' });
  return new Promise((resolve) => tail.on('close', (code) => resolve(code ?? 0)));
}
