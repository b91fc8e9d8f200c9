import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inServiceScope, startService, stopAllServices, type ServiceProcess } from './processes.ts';
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

describe('inServiceScope', () => {
  after(stopAllServices);

  it('stops the services started in it, with SIGTERM, and leaves the ones started before', async () => {
    const outer = await started('outer', false);
    const inner = await inServiceScope(() => started('inner', false));
    assert.equal(inner.process.exitCode, 0, 'the inner service exited on SIGTERM before the scope returned');
    assert.equal(outer.process.exitCode, null, 'the outer service still runs');
    assert.equal(outer.process.signalCode, null);
    await outer.stop();
  });

  it('stops them also when the run fails, and passes its error on', async () => {
    let inner: ServiceProcess | undefined;
    const failing = inServiceScope(async () => {
      inner = await started('failing', false);
      throw new Error('the run failed');
    });
    await assert.rejects(failing, /the run failed/);
    assert.equal(inner?.process.exitCode, 0, 'stopped before the error came out');
  });

  it('kills a service that does not exit on SIGTERM once the grace period is over', async () => {
    const stubborn = await inServiceScope(() => started('stubborn', true), 500);
    assert.equal(stubborn.process.signalCode, 'SIGKILL');
  });
});

describe('ServiceProcess.stop', () => {
  after(stopAllServices);

  it('given a service that exits on SIGTERM, then its exit status', async () => {
    assert.equal(await (await started('polite', false)).stop(500), 0);
  });

  it('given one that does not, then SIGKILL once killAfterMs passed: a stop never waits forever', async () => {
    const stubborn = await started('stubborn-stop', true);
    assert.equal(await stubborn.stop(500), null);
    assert.equal(stubborn.process.signalCode, 'SIGKILL');
  });
});
