import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OutgoingRecord, ProducedOffsets, TopicRecords } from '@kcm-bus/runtime/bus/index.ts';
import type { WatchRecord } from '@kcm-bus/schemas/watch-record.ts';
import type { KubeObject } from './events.ts';
import { openKindTopic } from './kind-topic.ts';

const topics = { history: 'kcm.watch.pods', state: 'kcm.state.pods' };
const pod = (type: 'Applied' | 'Deleted', name: string): WatchRecord<KubeObject> => ({
  type,
  key: `ns/${name}`,
  resourceVersion: '7',
  observedAt: '2026-01-01T00:00:00Z',
  object: { metadata: { namespace: 'ns', name } },
});
const watermark: WatchRecord<KubeObject> = {
  type: 'Watermark',
  key: '~watermark',
  resourceVersion: '8',
  observedAt: '2026-01-01T00:00:01Z',
  object: null,
};

function harness() {
  const calls: string[] = [];
  const sent: OutgoingRecord[] = [];
  const queued: { records: readonly OutgoingRecord[]; produced: ProducedOffsets }[] = [];
  const send =
    (how: string) =>
    async (batches: readonly TopicRecords[]): Promise<ProducedOffsets> => {
      calls.push(
        `${how} ${batches.map((b) => `${b.topic}: ${b.records.map((r) => `${r.key}@${r.partition} epoch ${r.headers?.['kcm-bus-epoch']}`).join(', ')}`).join('; ')}`,
      );
      sent.push(...batches.flatMap((b) => b.records));
      return [{ topic: topics.history, partition: 0, lastOffset: '9' }];
    };
  const topic = openKindTopic(
    topics,
    2,
    {
      publishing: { epoch: '5', history: send('history'), inTransaction: send('transaction') },
      checkpoints: { add: (_state, records, produced) => void queued.push({ records, produced }) },
      serde: { encode: async (e) => ({ bytes: Buffer.from(JSON.stringify(e)), unknownPaths: [] }) },
      onUnknown: () => undefined,
    },
    Buffer.from('restored watermark'),
  );
  return { topic, calls, queued, sent };
}

describe('openKindTopic', () => {
  it("given changes, then the history takes them in their namespace's partition with the epoch, and the state gets them (a delete and its tombstone) once the history did", async () => {
    const h = harness();
    await h.topic.publish([pod('Applied', 'a'), pod('Deleted', 'b')], false);
    assert.equal(h.calls.length, 1);
    assert.match(h.calls[0]!, /^history kcm\.watch\.pods: ns\/a@(\d) epoch 5, ns\/b@\1 epoch 5$/);
    assert.deepEqual(
      h.queued.map((q) => [q.records.map((r) => `${r.key}${r.value === null ? ' tombstone' : ''}`), q.produced.length]),
      [[['ns/a', 'ns/b', 'ns/b tombstone'], 1]],
    );
  });

  it('given a relist, then it goes in one transaction', async () => {
    const h = harness();
    await h.topic.publish([pod('Applied', 'a')], true);
    assert.match(h.calls[0]!, /^transaction /);
  });

  it('given a watermark, then it goes to every history partition, not to the state, and becomes the marker', async () => {
    const h = harness();
    assert.equal(h.topic.marker().toString(), 'restored watermark');
    await h.topic.publish([watermark], false);
    assert.equal(h.calls[0], 'history kcm.watch.pods: ~watermark@0 epoch 5, ~watermark@1 epoch 5');
    assert.deepEqual(h.queued[0]?.records, []);
    assert.match(h.topic.marker().toString(), /"resourceVersion":"8"/);
  });

  it("given a watermark with the partitions' inventories, then each partition's record carries its own, and the value none", async () => {
    const h = harness();
    await h.topic.publish([{ ...watermark, inventory: ['2:0000beef', '0:00000000'] }], false);
    assert.deepEqual(
      h.sent.map((r) => [r.partition, r.headers?.['kcm-bus-inventory']]),
      [
        [0, '2:0000beef'],
        [1, '0:00000000'],
      ],
    );
    assert.doesNotMatch(h.sent[0]!.value!.toString(), /inventory/);
  });
});
