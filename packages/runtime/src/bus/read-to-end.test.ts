import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Bus, BusRecord, GroupOptions, PartitionOffsets } from './bus.ts';
import { RANGE_MAX_WAIT_MS } from './read-range.ts';
import { readToEnd } from './read-to-end.ts';

const TOPIC = 'kcm.watch.pods';

/** record is a consumed record of key k at offset o. */
const record = (k: string, o: number): BusRecord => ({
  key: Buffer.from(k),
  value: Buffer.from('v'),
  offset: String(o),
  timestamp: '0',
  headers: {},
});

/**
 * fakeBus answers offsets with the given marks and, once joined, plays the script against the member's options
 * (as a consumer would deliver batches and progress); it records the options and whether the member stopped.
 */
function fakeBus(offsets: readonly PartitionOffsets[], script: (o: GroupOptions) => Promise<void>) {
  const seen = { joined: undefined as GroupOptions | undefined, stopped: false };
  const bus: Pick<Bus, 'offsets' | 'joinGroup'> = {
    offsets: async () => offsets,
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

describe('readToEnd', () => {
  it('given an empty topic, when read, then it returns without joining a group', async () => {
    const { bus, seen } = fakeBus([{ topic: TOPIC, partition: 0, low: '5', high: '5' }], async () => undefined);
    await readToEnd(bus, TOPIC, () => undefined);
    assert.equal(seen.joined, undefined);
  });

  it('given two partitions, when the last one ends in a batch of transaction markers only, then every record is read and the ephemeral member stopped', async () => {
    const offsets = [
      { topic: TOPIC, partition: 0, low: '0', high: '2' },
      { topic: TOPIC, partition: 1, low: '0', high: '3' },
    ];
    const { bus, seen } = fakeBus(offsets, async (o) => {
      await o.onBatch(
        { topic: TOPIC, partition: 0, records: [record('a', 0), record('b', 1)], lastOffset: '1' },
        async () => undefined,
      );
      o.onProgress?.({ topic: TOPIC, partition: 0 }, '1');
      await o.onBatch(
        { topic: TOPIC, partition: 1, records: [record('c', 0), record('d', 1)], lastOffset: '1' },
        async () => undefined,
      );
      o.onProgress?.({ topic: TOPIC, partition: 1 }, '1');
      o.onProgress?.({ topic: TOPIC, partition: 1 }, '2');
    });
    const read: string[] = [];
    await readToEnd(bus, TOPIC, (r, partition) => void read.push(`${partition}:${r.key?.toString()}`));
    assert.deepEqual(read, ['0:a', '0:b', '1:c', '1:d']);
    assert.equal(seen.joined?.ephemeral, true);
    assert.equal(seen.joined?.fromBeginning, true);
    assert.equal(seen.stopped, true);
  });

  it("given a read, then its member's fetches wait a tenth of a second for absent records, not kafkajs's 5 s its stop would wait", async () => {
    const { bus, seen } = fakeBus([{ topic: TOPIC, partition: 0, low: '0', high: '1' }], async (o) => {
      await o.onBatch(
        { topic: TOPIC, partition: 0, records: [record('a', 0)], lastOffset: '0' },
        async () => undefined,
      );
      o.onProgress?.({ topic: TOPIC, partition: 0 }, '0');
    });
    await readToEnd(bus, TOPIC, () => undefined);
    assert.equal(seen.joined?.maxWaitMs, RANGE_MAX_WAIT_MS);
    assert.ok(RANGE_MAX_WAIT_MS <= 100, `${RANGE_MAX_WAIT_MS} ms`);
  });

  it('given partitions, when read, then only those are asked for and waited on', async () => {
    const offsets = [
      { topic: TOPIC, partition: 0, low: '0', high: '9' },
      { topic: TOPIC, partition: 1, low: '0', high: '1' },
    ];
    const { bus, seen } = fakeBus(offsets, async (o) => {
      await o.onBatch(
        { topic: TOPIC, partition: 1, records: [record('c', 0)], lastOffset: '0' },
        async () => undefined,
      );
      o.onProgress?.({ topic: TOPIC, partition: 1 }, '0');
    });
    const read: string[] = [];
    await readToEnd(bus, TOPIC, (r) => void read.push(r.key?.toString() ?? ''), [1]);
    assert.deepEqual(read, ['c']);
    assert.deepEqual(seen.joined?.partitions, [1]);
  });

  it('given a consumer that crashes, when read, then it rejects with the error and the member is stopped', async () => {
    const { bus, seen } = fakeBus([{ topic: TOPIC, partition: 0, low: '0', high: '1' }], async (o) =>
      o.onCrash(new Error('coordinator gone'), true),
    );
    await assert.rejects(
      readToEnd(bus, TOPIC, () => undefined),
      /coordinator gone/,
    );
    assert.equal(seen.stopped, true);
  });
});
