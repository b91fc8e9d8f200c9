import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** A tree that breaks every rule once; the real tree is checked by the test command itself. */
const VIOLATIONS: Readonly<Record<string, string>> = {
  'services/writer/src/main.ts': "import '../../watcher/src/leak.ts';\n",
  'services/watcher/src/leak.ts': 'export const x = 1;\n',
  'packages/runtime/src/store.ts': "import { readFileSync } from 'node:fs';\nexport const y = readFileSync;\n",
  'services/reconciler-rc/src/reconcile.ts': "import { Kafka } from 'kafkajs';\nexport const z = Kafka;\n",
  'services/reconciler-node/src/api.kube.ts': "import { KubeConfig } from '@kubernetes/client-node';\nexport const k = KubeConfig;\n",
};

describe('the layering rule (dependency-cruiser)', () => {
  let output = '';

  before(() => {
    const dir = mkdtempSync(join(tmpdir(), 'kcm-bus-layers-'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    copyFileSync(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
    for (const [file, text] of Object.entries(VIOLATIONS)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    const run = spawnSync(join(ROOT, 'node_modules/.bin/depcruise'), ['--config', join(ROOT, '.dependency-cruiser.cjs'), 'packages', 'services'], {
      cwd: dir, encoding: 'utf8', env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}` },
    });
    assert.notEqual(run.status, 0, 'dependency-cruiser fails on the violating tree');
    output = run.stdout + run.stderr;
  });

  for (const rule of ['services-are-independent', 'pure-modules-do-no-io', 'only-the-bus-adapter-uses-kafkajs', 'only-watcher-and-writer-use-the-api']) {
    it(`reports ${rule}`, () => assert.match(output, new RegExp(`error ${rule}:`), output));
  }
});
