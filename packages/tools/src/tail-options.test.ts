import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commandLine } from './command.ts';
import { TAIL_COMMAND } from './tail.ts';
import { tailOptions, type TailOptions } from './tail-options.ts';

const options = (argv: readonly string[], now = 0): TailOptions =>
  tailOptions(commandLine(TAIL_COMMAND, argv, {}), {}, now);

describe('tailOptions', () => {
  it('given a topic, then it is tailed as named; given a watched kind by plural or short name, then its history topic', () => {
    const topicOf = (name: string): string => options([name]).topic;
    assert.deepEqual(['kcm.mutations', 'replicasets', 'rs', 'ReplicaSet', 'po'].map(topicOf), [
      'kcm.mutations',
      'kcm.watch.replicasets',
      'kcm.watch.replicasets',
      'kcm.watch.replicasets',
      'kcm.watch.pods',
    ]);
    assert.throws(() => topicOf('jobs'), /jobs is not a watched kind/);
  });

  it('given nothing but the topic, then it follows new records; given --since, then the history from then, and exits at its end', () => {
    assert.deepEqual(pick(options(['pods'])), { fromBeginning: false, follow: true, key: undefined, since: undefined });
    assert.deepEqual(pick(options(['pods', '--since', '10m', '--key', 'demo/web'], 3_600_000)), {
      fromBeginning: true,
      follow: false,
      key: 'demo/web',
      since: 3_000_000,
    });
  });

  it('given --from-beginning with -f (--follow), then the history and then new records', () => {
    assert.deepEqual(pick(options(['-f', 'pods', '--from-beginning'])), {
      fromBeginning: true,
      follow: true,
      key: undefined,
      since: undefined,
    });
  });
});

function pick(o: TailOptions): Pick<TailOptions, 'fromBeginning' | 'follow' | 'key' | 'since'> {
  return { fromBeginning: o.fromBeginning, follow: o.follow, key: o.key, since: o.since };
}
