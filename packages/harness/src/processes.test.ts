import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openServiceScope, startService, stopAllServices, type ServiceProcess } from './processes.ts';
import { waitFor } from './wait.ts';

/** A script that says it is listening for SIGTERM and runs until a signal; on SIGTERM it exits 0, unless told to ignore it. */
function idleScript(ignoreTerm: boolean): string {
  const file = join(mkdtempSync(join(tmpdir(), 'kcm-bus-scope-')), 'idle.mjs');
  const onTerm = ignoreTerm ? '() => undefined' : "() => { console.log('terminated'); process.exit(0); }";
  writeFileSync(
    file,
    `process.on('SIGTERM', ${onTerm}); console.log('listening'); setInterval(() => undefined, 1000);\n`,
  );
  return file;
}

/** started starts the script as a service and waits until its SIGTERM handler is set. */
async function started(name: string, ignoreTerm: boolean): Promise<ServiceProcess> {
  const service = await startService(name, [], { ready: false, script: idleScript(ignoreTerm) });
  await waitFor(`${name} listening`, () => readFileSync(service.logFile, 'utf8').includes('listening'));
  return service;
}

describe('openServiceScope', () => {
  after(stopAllServices);

  it('stops the services started since it was opened, with SIGTERM, and leaves the ones started before', async () => {
    const outer = await started('outer', false);
    const scope = openServiceScope();
    const inner = await started('inner', false);
    await scope.stop();
    assert.equal(await inner.exited, 0, 'the inner service exited on SIGTERM');
    assert.equal(outer.process.exitCode, null, 'the outer service still runs');
    assert.equal(outer.process.signalCode, null);
    await outer.stop();
  });

  it('kills a service that does not exit on SIGTERM once the grace period is over', async () => {
    const scope = openServiceScope(500);
    const stubborn = await started('stubborn', true);
    await scope.stop();
    assert.equal(stubborn.process.signalCode, 'SIGKILL');
  });
});
