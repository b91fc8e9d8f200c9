import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FlagError, flagReader, parseFlags, type FlagSpec } from './flags.ts';

const PERIOD: FlagSpec = { name: 'node-monitor-period', type: 'duration', default: '5s', help: '' };

describe('parseFlags: duration flags, spelt as upstream\'s', () => {
  it('given no value, then the default is read in milliseconds', () => {
    assert.equal(flagReader(parseFlags([PERIOD], [], {})).duration('node-monitor-period'), 5000);
  });

  it('given a Go duration on the command line or in the environment, then it is read in milliseconds', () => {
    assert.equal(flagReader(parseFlags([PERIOD], ['--node-monitor-period=1m30s'], {})).duration('node-monitor-period'), 90_000);
    assert.equal(flagReader(parseFlags([PERIOD], [], { KCM_BUS_NODE_MONITOR_PERIOD: '250ms' })).duration('node-monitor-period'), 250);
  });

  it('given a bare number, then it is refused naming the flag (Go wants a unit)', () => {
    assert.throws(() => parseFlags([PERIOD], ['--node-monitor-period=5'], {}), (err: Error) => err instanceof FlagError && /--node-monitor-period/.test(err.message));
  });
});
