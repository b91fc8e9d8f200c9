import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

/** stopped runs a service whose stop takes stopMs under a grace of graceMs, sends it SIGTERM, and reports how it ended. */
async function stopped(stopMs: number, graceMs: number): Promise<{ code: number | null; log: string; tookMs: number }> {
  const script = join(mkdtempSync(join(tmpdir(), 'kcm-bus-lifecycle-')), 'service.ts');
  writeFileSync(
    script,
    `import { jsonLogger } from ${JSON.stringify(join(import.meta.dirname, 'log.ts'))};
import { runUntilSignal } from ${JSON.stringify(join(import.meta.dirname, 'lifecycle.ts'))};
await runUntilSignal(jsonLogger('svc'), ${graceMs}, async () => {
  setInterval(() => undefined, 1000);
  console.log('ready');
  return { stop: () => new Promise((resolve) => setTimeout(resolve, ${stopMs})) };
});
`,
  );
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr.on('data', (d: Buffer) => (log += d.toString()));
  await new Promise<void>((ready) => child.stdout.once('data', () => ready()));
  const sent = Date.now();
  child.kill('SIGTERM');
  const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
  return { code, log, tookMs: Date.now() - sent };
}

describe('runUntilSignal: a stop ends in time', () => {
  it('given a stop within the grace period, then the service exits 0 once it is done', async () => {
    const { code, log } = await stopped(50, 5000);
    assert.equal(code, 0);
    assert.match(log, /"msg":"stopped"/);
  });

  it('given a stop that never ends (a publish the broker never answers), then the service exits 1 at the grace period, saying so', async () => {
    const { code, log, tookMs } = await stopped(600_000, 300);
    assert.equal(code, 1);
    assert.match(log, /longer than --graceful-shutdown-timeout/);
    assert.ok(tookMs < 10_000, `exited ${tookMs} ms after SIGTERM`);
  });
});
