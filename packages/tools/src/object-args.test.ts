import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kindNamed, parseObjectArgs } from './object-args.ts';

describe('kindNamed', () => {
  it('given a plural, a singular, a kind or a short name, then it is the watched kind', () => {
    assert.deepEqual(['pods', 'pod', 'Pod', 'po'].map((n) => kindNamed(n).plural), ['pods', 'pods', 'pods', 'pods']);
    assert.deepEqual(['replicasets', 'replicaset', 'ReplicaSet', 'rs'].map((n) => kindNamed(n).plural), ['replicasets', 'replicasets', 'replicasets', 'replicasets']);
    assert.deepEqual(['replicationcontrollers', 'replicationcontroller', 'rc'].map((n) => kindNamed(n).plural), Array(3).fill('replicationcontrollers'));
  });

  it('given a kind that is not watched, then it says which are', () => {
    assert.throws(() => kindNamed('deployments'), /not a watched kind; watched: pods, /);
  });
});

describe('parseObjectArgs', () => {
  const env = { KCM_BUS_KAFKA_BROKERS: 'b1:9092,b2:9092', KCM_BUS_SCHEMA_REGISTRY_URL: 'http://r' };

  it('given kind, key and --json, then the key is as given and the connection comes from the environment', () => {
    assert.deepEqual(parseObjectArgs('trace', ['rc', 'demo/web', '--json'], env),
      { kind: kindNamed('rc'), key: 'demo/web', json: true, brokers: ['b1:9092', 'b2:9092'], registry: 'http://r', security: { kafka: {}, registry: {} } });
  });

  it('given a flag, then it wins over the environment', () => {
    assert.deepEqual(parseObjectArgs('history', ['pod', 'a/b', '--kafka-brokers', 'k:1'], env).brokers, ['k:1']);
  });

  it('given a namespaced name without namespace, then it is in default; a cluster-scoped one with a namespace is refused', () => {
    assert.equal(parseObjectArgs('history', ['pods', 'web-1'], {}).key, 'default/web-1');
    assert.throws(() => parseObjectArgs('history', ['nodes', 'a/n1'], {}), /cluster-scoped/);
  });

  it('given no name, then it prints the usage', () => {
    assert.throws(() => parseObjectArgs('trace', ['pods'], {}), /usage: kcm-bus trace KIND NAMESPACE\/NAME/);
  });
});
