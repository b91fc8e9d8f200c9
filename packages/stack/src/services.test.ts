import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { stackConfig } from './config.ts';
import { stackEndpoints } from './endpoints.ts';
import { serviceParts } from './services.ts';

const env = { KCM_BUS_RUN_DIR: '/run/unit', KCM_BUS_PORT_BASE: '20000' };

describe('serviceParts', () => {
  it('runs one of each service on a single-node stack', () => {
    const c = stackConfig('unit', env);
    assert.deepEqual(
      serviceParts(c, stackEndpoints(c)).map((p) => p.name),
      ['watcher', 'writer', 'reconciler-rc', 'reconciler-endpoint', 'reconciler-node', 'reconciler-namespace'],
    );
  });

  it('runs a second replica of each reconciler and of the writer, as the same principal on its own port and pid', () => {
    const c = stackConfig('unit', { ...env, KCM_BUS_SERVICE_REPLICAS: '2' });
    const parts = serviceParts(c, stackEndpoints(c));
    assert.deepEqual(
      parts.map((p) => p.name).filter((n) => n.endsWith('-2')),
      ['writer-2', 'reconciler-rc-2', 'reconciler-endpoint-2', 'reconciler-node-2', 'reconciler-namespace-2'],
    );
    assert.ok(!parts.some((p) => p.name === 'watcher-2'), 'one watcher: a second would fence the first');
    assert.equal(new Set(parts.map((p) => p.launch.name)).size, parts.length, 'a pid file and log each');
    assert.equal(new Set(parts.flatMap((p) => p.ports.map((n) => c.ports[n]))).size, parts.length);
    const [first, second] = ['reconciler-rc', 'reconciler-rc-2'].map((n) => parts.find((p) => p.name === n));
    const withoutPort = (args: readonly string[] = []): string[] =>
      args.filter((_, i) => args[i - 1] !== '--metrics-bind-address');
    assert.deepEqual(withoutPort(second?.launch.args), withoutPort(first?.launch.args));
  });
});
