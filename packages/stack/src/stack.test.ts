import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stackConfig } from './config.ts';
import { isAlive, startProcess } from './procs.ts';
import { down } from './stack.ts';

describe('down', () => {
  it('stops every recorded process by pid even when one part has crashed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kcm-bus-run-'));
    const c = stackConfig('unit', { KCM_BUS_RUN_DIR: dir });
    const pids = ['etcd', 'kube-apiserver', 'kafka'].map((name) =>
      startProcess(dir, { name, command: 'sleep', args: ['600'] }),
    );
    const [, crashed] = pids;
    process.kill(crashed ?? 0, 'SIGKILL');
    while (isAlive(crashed ?? 0)) await sleep(10);
    const stopped = await down(c);
    assert.deepEqual(stopped.sort(), ['etcd', 'kafka']);
    assert.ok(
      pids.every((pid) => !isAlive(pid)),
      'no process is left behind',
    );
  });
});
