import { describe, it, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuildError, obtain, type Recipe } from './obtain.ts';

function recipe(build: Recipe['build']): Recipe {
  return { part: 'probe', version: 'v1', build };
}

describe('obtain: the cache of built parts', () => {
  beforeEach(() => {
    process.env['KCM_BUS_CACHE'] = mkdtempSync(join(tmpdir(), 'kcm-bus-cache-'));
  });

  it('builds a missing part once and reuses it afterwards', async () => {
    let builds = 0;
    const r = recipe(async (dir) => {
      builds++;
      writeFileSync(join(dir, 'artifact'), 'x');
    });
    const dir = await obtain(r, () => undefined);
    assert.equal(await obtain(r, () => undefined), dir);
    assert.equal(builds, 1);
    assert.ok(existsSync(join(dir, 'artifact')));
  });

  it('redoes a half-filled part (a killed build) and says so', async () => {
    const failing = recipe(async (dir) => {
      writeFileSync(join(dir, 'partial'), 'x');
      throw new Error('killed');
    });
    await assert.rejects(obtain(failing, () => undefined));
    const said: string[] = [];
    const dir = await obtain(
      recipe(async () => undefined),
      (line) => said.push(line),
    );
    assert.ok(
      said.some((l) => l.includes('half-filled')),
      said.join('\n'),
    );
    assert.ok(!existsSync(join(dir, 'partial')), 'the leftovers of the killed build are gone');
  });

  it('reports a failed build with the path of its log and its last lines', async () => {
    const failing = recipe(async (_dir, log) => {
      log.write('step 1\nstep 2: compiler exploded\n');
      throw new Error('exit status 2');
    });
    const err = await obtain(failing, () => undefined).catch((e: unknown) => e);
    assert.ok(err instanceof BuildError);
    assert.match(err.message, /log: .*probe-v1\.log/);
    assert.match(err.message, /step 2: compiler exploded/);
  });
});
