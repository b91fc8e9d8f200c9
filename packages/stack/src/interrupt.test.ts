import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

/** runInterrupted runs a script that registers onInterrupt and then waits forever, and sends it `signal` once it is ready. */
async function runInterrupted(signal: NodeJS.Signals): Promise<{ code: number | null; cleaned: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'kcm-bus-interrupt-'));
  const script = join(dir, 'long.ts');
  writeFileSync(
    script,
    `import { writeFileSync } from 'node:fs';
import { onInterrupt } from ${JSON.stringify(join(import.meta.dirname, 'interrupt.ts'))};
onInterrupt(async () => writeFileSync(${JSON.stringify(join(dir, 'cleaned'))}, 'stack down'), () => undefined);
console.log('ready');
setInterval(() => undefined, 1000);
`,
  );
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((ready) => child.stdout.once('data', () => ready()));
  child.kill(signal);
  const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
  return { code, cleaned: readFileSync(join(dir, 'cleaned'), 'utf8') };
}

describe('onInterrupt: a stopped command stops what it started', () => {
  it('given Ctrl-C (SIGINT), then the cleanup runs and the exit status is 130', async () => {
    assert.deepEqual(await runInterrupted('SIGINT'), { code: 130, cleaned: 'stack down' });
  });

  it('given SIGTERM, then the cleanup runs and the exit status is 143', async () => {
    assert.deepEqual(await runInterrupted('SIGTERM'), { code: 143, cleaned: 'stack down' });
  });
});
