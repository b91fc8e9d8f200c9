import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FlagError, flagReader, parseCommandLine, parseFlags, usage, wantsHelp, type FlagSpec } from './flags.ts';

const PERIOD: FlagSpec = { name: 'node-monitor-period', type: 'duration', default: '5s', help: '' };

describe("parseFlags: duration flags, spelt as upstream's", () => {
  it('given no value, then the default is read in milliseconds', () => {
    assert.equal(flagReader(parseFlags([PERIOD], [], {})).duration('node-monitor-period'), 5000);
  });

  it('given a Go duration on the command line or in the environment, then it is read in milliseconds', () => {
    assert.equal(
      flagReader(parseFlags([PERIOD], ['--node-monitor-period=1m30s'], {})).duration('node-monitor-period'),
      90_000,
    );
    assert.equal(
      flagReader(parseFlags([PERIOD], [], { KCM_BUS_NODE_MONITOR_PERIOD: '250ms' })).duration('node-monitor-period'),
      250,
    );
  });

  it('given a bare number, then it is refused naming the flag (Go wants a unit)', () => {
    assert.throws(
      () => parseFlags([PERIOD], ['--node-monitor-period=5'], {}),
      (err: Error) => err instanceof FlagError && /--node-monitor-period/.test(err.message),
    );
  });
});

describe("parseCommandLine: a command's flags and positional arguments, one parser with the services'", () => {
  const SPECS: readonly FlagSpec[] = [
    { name: 'follow', short: 'f', type: 'boolean', default: false, env: false, help: 'Keep following.' },
    { name: 'kafka-brokers', type: 'list', default: ['127.0.0.1:17103'], help: 'Brokers.' },
  ];

  it('given flags among positionals, then each is read and the positionals keep their order; -f is --follow', () => {
    const line = parseCommandLine(SPECS, ['pod', '-f', 'demo/web', '--kafka-brokers=a:1,b:2'], {});
    assert.deepEqual(
      [line.positionals, line.flags.boolean('follow'), line.flags.list('kafka-brokers')],
      [['pod', 'demo/web'], true, ['a:1', 'b:2']],
    );
  });

  it('given a flag that reads the environment and one that does not, then only the first is taken from it', () => {
    const line = parseCommandLine(SPECS, [], { KCM_BUS_FOLLOW: 'true', KCM_BUS_KAFKA_BROKERS: 'k:1' });
    assert.deepEqual([line.flags.boolean('follow'), line.flags.list('kafka-brokers')], [false, ['k:1']]);
  });

  it('given an unknown flag, then a FlagError names it; passing others on, it is left to the command run next', () => {
    assert.throws(
      () => parseCommandLine(SPECS, ['--burst-replicas', '5'], {}),
      (err: Error) => err instanceof FlagError && /--burst-replicas/.test(err.message),
    );
    const line = parseCommandLine(SPECS, ['--burst-replicas', '5', '-f'], {}, 'pass');
    assert.deepEqual([line.flags.boolean('follow'), line.argv], [true, ['--burst-replicas', '5', '-f']]);
  });

  it('given a valued flag with no value while passing others on, then a FlagError, not a boolean where a string is wanted', () => {
    assert.throws(
      () => parseCommandLine(SPECS, ['--kafka-brokers'], {}, 'pass'),
      (err: Error) => err instanceof FlagError && /--kafka-brokers needs a value/.test(err.message),
    );
  });

  it('given --help or -h before any --, then help is wanted', () => {
    assert.deepEqual([['x', '--help'], ['-h'], ['--', '--help'], ['--helpful']].map(wantsHelp), [
      true,
      true,
      false,
      false,
    ]);
  });

  it('usage names the short alias, and the variable only of a flag that reads one', () => {
    assert.equal(
      usage(SPECS),
      '  -f, --follow (default false)\n      Keep following.\n  --kafka-brokers (KCM_BUS_KAFKA_BROKERS, default ["127.0.0.1:17103"])\n      Brokers.',
    );
  });
});
