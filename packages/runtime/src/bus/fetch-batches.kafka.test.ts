import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConsumerGroup, fetchWithoutEmptyBatches, withoutEmptyBatches } from './fetch-batches.kafka.ts';

const batch = (topic: string, rawMessages: readonly unknown[]) => ({ topic, rawMessages });

describe('withoutEmptyBatches', () => {
  it('given a fetch of records, markers and empty partitions, then only the empty partitions are dropped', async () => {
    const fetched = [
      batch('pods', [{ offset: '4' }]),
      batch('sets', []),
      batch('results', [{ isControlRecord: true }]),
    ];
    const calls: unknown[][] = [];
    const self = { name: 'a consumer group' };
    const fetch = withoutEmptyBatches(async function (this: unknown, nodeId: number) {
      calls.push([this, nodeId]);
      return fetched;
    });
    const kept = await fetch.call(self, 3);
    assert.deepEqual(
      kept.map((b) => b.topic),
      ['pods', 'results'],
    );
    assert.deepEqual(calls, [[self, 3]]);
  });

  it('given a fetch where no partition brought records, then it returns none', async () => {
    const fetch = withoutEmptyBatches(async () => [batch('pods', []), batch('sets', [])]);
    assert.deepEqual(await fetch.call(undefined, 0), []);
  });
});

describe('fetchWithoutEmptyBatches', () => {
  it('given a consumer group class, when asked twice, then its fetch drops the empty partitions, one call of the original a fetch', async () => {
    let fetches = 0;
    class Group {
      async fetch(): Promise<{ rawMessages: unknown[] }[]> {
        fetches++;
        return [{ rawMessages: [] }, { rawMessages: [{}] }];
      }
    }
    fetchWithoutEmptyBatches(Group);
    fetchWithoutEmptyBatches(Group);
    assert.equal((await new Group().fetch()).length, 1);
    assert.equal(fetches, 1);
  });

  it("given kafkajs's pinned ConsumerGroup, then it has the fetch the change wraps", () => {
    assert.equal(typeof ConsumerGroup.prototype.fetch, 'function');
  });
});
