import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FlagError } from '@kcm-bus/runtime/service/index.ts';
import { commandLine } from './command.ts';
import { HISTORY_COMMAND } from './history.ts';
import { kindNamed, objectArgs } from './object-args.ts';
import { TRACE_COMMAND } from './trace.ts';

describe('kindNamed', () => {
  it('given a plural, a singular, a kind or a short name, then it is the watched kind', () => {
    assert.deepEqual(
      ['pods', 'pod', 'Pod', 'po'].map((n) => kindNamed(n).plural),
      ['pods', 'pods', 'pods', 'pods'],
    );
    assert.deepEqual(
      ['replicasets', 'replicaset', 'ReplicaSet', 'rs'].map((n) => kindNamed(n).plural),
      ['replicasets', 'replicasets', 'replicasets', 'replicasets'],
    );
    assert.deepEqual(
      ['replicationcontrollers', 'replicationcontroller', 'rc'].map((n) => kindNamed(n).plural),
      Array(3).fill('replicationcontrollers'),
    );
  });

  it('given a kind that is not watched, then it says which are', () => {
    assert.throws(() => kindNamed('jobs'), /not a watched kind; watched: pods, /);
  });
});

describe('objectArgs: history and trace KIND NAMESPACE/NAME [--json]', () => {
  const env = { KCM_BUS_KAFKA_BROKERS: 'b1:9092,b2:9092', KCM_BUS_SCHEMA_REGISTRY_URL: 'http://r' };
  const trace = (argv: readonly string[], e: NodeJS.ProcessEnv = env) =>
    objectArgs(commandLine(TRACE_COMMAND, argv, e), e);
  const history = (argv: readonly string[], e: NodeJS.ProcessEnv = env) =>
    objectArgs(commandLine(HISTORY_COMMAND, argv, e), e);

  it('given kind, key and --json, then the key is as given and the connection comes from the environment', () => {
    assert.deepEqual(trace(['rc', 'demo/web', '--json']), {
      kind: kindNamed('rc'),
      key: 'demo/web',
      json: true,
      brokers: ['b1:9092', 'b2:9092'],
      registry: 'http://r',
      security: { kafka: {}, registry: {} },
    });
  });

  it('given a flag, then it wins over the environment; --json is read from the command line only', () => {
    assert.deepEqual(history(['pod', 'a/b', '--kafka-brokers', 'k:1']).brokers, ['k:1']);
    assert.equal(history(['pod', 'a/b'], { KCM_BUS_JSON: 'true' }).json, false);
  });

  it('given a namespaced name without namespace, then it is in default; a cluster-scoped one with a namespace is refused', () => {
    assert.equal(history(['pods', 'web-1'], {}).key, 'default/web-1');
    assert.throws(
      () => history(['nodes', 'a/n1'], {}),
      (err: Error) => err instanceof FlagError && /cluster-scoped/.test(err.message),
    );
  });

  it('given no name, one argument too many or an unknown flag, then the command line is refused (FlagError: exit 2 with the usage)', () => {
    assert.throws(
      () => trace(['pods']),
      (err: Error) =>
        err instanceof FlagError && /missing arguments: kcm-bus trace KIND NAMESPACE\/NAME/.test(err.message),
    );
    assert.throws(
      () => trace(['pods', 'a/b', 'c']),
      (err: Error) => err instanceof FlagError && /unexpected argument "c"/.test(err.message),
    );
    assert.throws(
      () => trace(['pods', 'a/b', '--jsn']),
      (err: Error) => err instanceof FlagError && /--jsn/.test(err.message),
    );
  });
});
