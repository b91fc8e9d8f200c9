import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { CONTROLLERS } from '@kcm-bus/catalog/controllers.ts';
import { describe, it } from 'node:test';
import { main } from './cli.ts';
import { CONTROLLER_SERVICES } from './replay-command.ts';
import { serviceScript } from './services.ts';

describe('kcm-bus replay', () => {
  it('names, for each controller of the catalog, the service that runs it (test/unit/catalog.test.ts checks the services declare them)', () => {
    assert.deepEqual(
      Object.keys(CONTROLLER_SERVICES),
      CONTROLLERS.map((c) => c.name),
    );
    for (const [controller, service] of Object.entries(CONTROLLER_SERVICES))
      assert.ok(existsSync(serviceScript(service)), `${controller}: ${service}`);
  });

  it('refuses a controller kcm-bus does not run, with exit status 2 and no service started', async () => {
    assert.equal(await main(['replay', '--controller', 'deployment-controller', '--from', '1h'], {}), 2);
    assert.equal(await main(['replay', '--controller', 'constructor', '--from', '1h'], {}), 2);
    assert.equal(await main(['replay', '--from', '1h'], {}), 2);
  });

  it('given --help and no --controller, then its own help, exit status 0 and no service started', async () => {
    assert.equal(await main(['replay', '--help'], {}), 0);
    assert.equal(await main(['replay', '--from', '1h', '-h'], {}), 0);
  });
});
