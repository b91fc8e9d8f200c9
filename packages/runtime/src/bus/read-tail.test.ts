import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Bus, BusRecord, GroupOptions, PartitionOffsets } from './bus.ts';
import { readTail } from './read-tail.ts';

const PODS = 'kcm.state.pods';
const record = (o: number): BusRecord => ({
  key: Buffer.from(`k${o}`),
  value: Buffer.from('v'),
  offset: String(o),
  timestamp: '0',
  headers: {},
});

/** fakeBus answers offsets with the marks and, once joined, plays the script against the member's options. */
function fakeBus(offsets: readonly PartitionOffsets[], script: (o: GroupOptions) => Promise<void>) {
  const seen = { joined: undefined as GroupOptions | undefined, stopped: false };
  const bus: Pick<Bus, 'offsets' | 'joinGroup'> = {
    offsets: async (topic) => offsets.filter((p) => p.topic === topic),
    joinGroup: async (o) => {
      seen.joined = o;
      setImmediate(() => void script(o));
      return {
        joined: () => true,
        commit: async () => undefined,
        stop: async () => void (seen.stopped = true),
        pause: () => undefined,
        resume: () => undefined,
      };
    },
  };
  return { bus, seen };
}

describe('readTail', () => {
  it('given a long and a short partition, when the last 3 offsets are read, then each starts 3 before its end (or at its start), and records past the end are left out', async () => {
    const offsets = [
      { topic: PODS, partition: 0, low: '10', high: '100' },
      { topic: PODS, partition: 1, low: '0', high: '2' },
      { topic: PODS, partition: 2, low: '5', high: '5' },
    ];
    const { bus, seen } = fakeBus(offsets, async (o) => {
      await o.onBatch(
        { topic: PODS, partition: 0, records: [record(97), record(98), record(99), record(100)], lastOffset: '100' },
        async () => undefined,
      );
      o.onProgress?.({ topic: PODS, partition: 0 }, '100');
      await o.onBatch(
        { topic: PODS, partition: 1, records: [record(0), record(1)], lastOffset: '1' },
        async () => undefined,
      );
      o.onProgress?.({ topic: PODS, partition: 1 }, '1');
    });
    const read: string[] = [];
    await readTail(bus, [PODS], 3, (r, tp) => void read.push(`${tp.partition}:${r.offset}`));
    assert.deepEqual(read, ['0:97', '0:98', '0:99', '1:0', '1:1']);
    assert.deepEqual(
      [0, 1, 2].map((partition) => seen.joined?.startAt?.({ topic: PODS, partition })),
      ['97', '0', undefined],
    );
    assert.equal(seen.joined?.ephemeral, true);
    assert.equal(seen.stopped, true);
  });

  it('given only empty partitions, when read, then it returns without joining a group', async () => {
    const { bus, seen } = fakeBus([{ topic: PODS, partition: 0, low: '3', high: '3' }], async () => undefined);
    await readTail(bus, [PODS], 3, () => undefined);
    assert.equal(seen.joined, undefined);
  });
});
