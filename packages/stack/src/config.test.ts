import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { stackConfig } from './config.ts';

describe('stackConfig', () => {
  it('gives the dev and test profiles ports that do not overlap', () => {
    const dev = Object.values(stackConfig('dev', {}).ports);
    const test = Object.values(stackConfig('test', {}).ports);
    assert.equal(new Set([...dev, ...test]).size, dev.length + test.length);
  });

  it('takes a base port and single-port overrides from the environment', () => {
    const c = stackConfig('dev', { KCM_BUS_PORT_BASE: '20000', KCM_BUS_PORT_KAFKA_CONTROLLER: '30000' });
    assert.equal(c.ports.etcd, 20000);
    assert.equal(c.ports.kafkaController, 30000);
  });

  it('refuses a value that is not a port, naming the variable', () => {
    assert.throws(() => stackConfig('dev', { KCM_BUS_PORT_REDIS: 'six' }), /KCM_BUS_PORT_REDIS=six/);
  });
});
