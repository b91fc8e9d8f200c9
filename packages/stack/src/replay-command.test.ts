import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { CONTROLLER_SERVICES, replayCommand } from './replay-command.ts';
import { serviceScript } from './services.ts';

describe('kcm-bus replay', () => {
  it('names, for each controller, a service whose sources declare that controller', () => {
    for (const [controller, service] of Object.entries(CONTROLLER_SERVICES)) {
      const dir = dirname(serviceScript(service));
      const sources = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => readFileSync(join(dir, f), 'utf8'));
      assert.ok(sources.some((text) => text.includes(`'${controller}'`)), `${service} declares ${controller}`);
    }
  });

  it('refuses a controller kcm-bus does not run, with exit status 2 and no service started', async () => {
    assert.equal(await replayCommand(['--controller', 'deployment-controller', '--from', '1h']), 2);
    assert.equal(await replayCommand(['--from', '1h']), 2);
  });
});
