import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keptFor, RECORD_LIMIT_CONFIG, topicConfigsToSet } from './record-limit.ts';

describe("topicConfigsToSet: kcm-bus's configs over a topic's own", () => {
  it("given an operator's configs, then kcm-bus's win but the others stay", () => {
    assert.deepEqual(topicConfigsToSet({ 'min.insync.replicas': '2', 'retention.ms': '1' }, { 'retention.ms': '2' }), {
      'min.insync.replicas': '2',
      'retention.ms': '2',
    });
  });

  it('given a record limit, then a smaller own one is raised and a larger own one stays', () => {
    assert.deepEqual(topicConfigsToSet({ 'max.message.bytes': '1048588' }, RECORD_LIMIT_CONFIG), RECORD_LIMIT_CONFIG);
    assert.deepEqual(topicConfigsToSet({ 'max.message.bytes': '8388608' }, RECORD_LIMIT_CONFIG), {
      'max.message.bytes': '8388608',
    });
  });
});

describe('keptFor', () => {
  it('given a retention, then the topic deletes what is older, is never compacted, and takes the record limit', () => {
    assert.deepEqual(keptFor(604_800_000), {
      'cleanup.policy': 'delete',
      'retention.ms': '604800000',
      'max.message.bytes': '4194304',
    });
  });
});
