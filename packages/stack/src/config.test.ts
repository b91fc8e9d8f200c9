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

describe('stackConfig: the cluster profile', () => {
  it('has three Kafka nodes, two replicas of each reconciler and of the writer, and ports of its own', () => {
    const cluster = stackConfig('cluster', {});
    assert.equal(cluster.kafkaNodes, 3);
    assert.equal(cluster.serviceReplicas, 2);
    const others = ['dev', 'test'].flatMap((p) => Object.values(stackConfig(p, {}).ports));
    const mine = Object.values(cluster.ports);
    assert.equal(new Set([...others, ...mine]).size, others.length + mine.length);
  });

  it('gives any profile that shape from the environment, and every other profile one node and one replica', () => {
    const c = stackConfig('bench', { KCM_BUS_KAFKA_NODES: '3', KCM_BUS_SERVICE_REPLICAS: '2' });
    assert.deepEqual([c.kafkaNodes, c.serviceReplicas], [3, 2]);
    const dev = stackConfig('dev', {});
    assert.deepEqual([dev.kafkaNodes, dev.serviceReplicas], [1, 1]);
  });

  it('refuses a shape the stack does not run, naming the variable and the choices', () => {
    assert.throws(
      () => stackConfig('dev', { KCM_BUS_KAFKA_NODES: '2' }),
      /KCM_BUS_KAFKA_NODES=2: the stack runs 1 or 3/,
    );
    assert.throws(() => stackConfig('dev', { KCM_BUS_SERVICE_REPLICAS: '3' }), /KCM_BUS_SERVICE_REPLICAS=3/);
  });
});
