import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

describe('--help: what an operator meets first', () => {
  for (const [service, flag] of [['watcher', '--audit-window-seconds'], ['writer', '--kube-api-qps'], ['reconciler-rc', '--concurrent-rc-syncs'], ['reconciler-endpoint', '--endpoint-updates-batch-period'], ['reconciler-node', '--node-monitor-grace-period']] as const) {
    it(`given ${service} --help, then it prints every flag with its variable and default and exits 0, touching nothing`, () => {
      const run = spawnSync(process.execPath, [resolve(ROOT, `services/${service}/src/main.ts`), '--help'], { encoding: 'utf8', timeout: 30_000 });
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, new RegExp(`${flag} \\(KCM_BUS_[A-Z_]+, default `));
      assert.match(run.stdout, /--kafka-brokers \(KCM_BUS_KAFKA_BROKERS, default /);
    });
  }
});
