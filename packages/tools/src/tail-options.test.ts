import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTailOptions } from './tail-options.ts';

describe('parseTailOptions', () => {
  it('given a topic, then it is tailed as named; given a watched kind by plural or short name, then its history topic', () => {
    const topicOf = (name: string): string => parseTailOptions([name], {}, 0).topic;
    assert.deepEqual(['kcm.mutations', 'replicasets', 'rs', 'ReplicaSet', 'po'].map(topicOf), ['kcm.mutations', 'kcm.watch.replicasets', 'kcm.watch.replicasets', 'kcm.watch.replicasets', 'kcm.watch.pods']);
    assert.throws(() => topicOf('deployments'), /deployments is not a watched kind/);
  });
});
