import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BusRecord, GroupOptions } from '@kcm-bus/runtime/bus/index.ts';
import { HISTORY_NEXT_HEADER, WATERMARK_KEY } from '@kcm-bus/schemas/watch-record.ts';
import { restoreKinds, type KindToRestore, type RestorePorts } from './restore-kind.ts';

const RCS = { history: 'kcm.watch.replicationcontrollers', state: 'kcm.state.replicationcontrollers' };
const PODS = { history: 'kcm.watch.pods', state: 'kcm.state.pods' };

/** event is a record at `offset` of a watch event (JSON stands in for Avro). */
const event = (key: string, offset: number, body: object, headers: Record<string, string> = {}): BusRecord => ({
  key: Buffer.from(key),
  value: Buffer.from(
    JSON.stringify({ key, resourceVersion: String(offset + 10), observedAt: '2026-11-29T00:00:00Z', ...body }),
  ),
  offset: String(offset),
  timestamp: '0',
  headers,
});

/** applied is an Applied event under `key` whose object is `ns/name`. */
const applied = (key: string, name: string, offset: number): BusRecord =>
  event(key, offset, {
    type: 'Applied',
    object: { metadata: { namespace: 'ns', name, uid: `uid-${name}`, resourceVersion: String(offset + 10) } },
  });

/** marker is a state topic's watermark saying the history's partition 0 is held up to (not including) `next`. */
const marker = (offset: number, next: number): BusRecord =>
  event(WATERMARK_KEY, offset, { type: 'Watermark', object: null }, { [HISTORY_NEXT_HEADER]: String(next) });

/**
 * logBus serves each topic's records on partition 0 (offsets from 0), and plays them to each member from its startAt
 * on, as a consumer would deliver a batch and its progress; joins records every member's options.
 */
function logBus(topics: Readonly<Record<string, readonly BusRecord[]>>): RestorePorts & { joins: GroupOptions[] } {
  const joins: GroupOptions[] = [];
  const play = async (o: GroupOptions): Promise<void> => {
    for (const topic of o.topics) {
      const tp = { topic, partition: 0 };
      const records = (topics[topic] ?? []).filter((r) => BigInt(r.offset) >= BigInt(o.startAt?.(tp) ?? '0'));
      if (records.length === 0) continue;
      const lastOffset = records.at(-1)!.offset;
      await o.onBatch({ ...tp, records, lastOffset }, async () => undefined);
      o.onProgress?.(tp, lastOffset);
    }
  };
  return {
    joins,
    offsets: async (topic) => [{ topic, partition: 0, low: '0', high: String(topics[topic]?.length ?? 0) }],
    joinGroup: async (o) => {
      joins.push(o);
      setImmediate(() => void play(o));
      return {
        joined: () => true,
        commit: async () => undefined,
        stop: async () => undefined,
        pause() {},
        resume() {},
      };
    },
  };
}

const serde = { decode: async (bytes: Buffer) => ({ value: JSON.parse(bytes.toString()) as unknown, schemaId: 1 }) };

/** kind is a kind of one partition to restore from `topics`, its poison told to `poisoned`. */
const kind = (topics: KindToRestore['topics'], poisoned: string[] = []): KindToRestore => ({
  topics,
  serde,
  placed: { partitions: 1, partitionOf: () => 0 },
  onPoison: (offset, err) => poisoned.push(`${offset}: ${String(err)}`),
});

describe('restoreKinds: what the state topics say was published', () => {
  it('given a record whose key does not name its object (which every consumer refuses), then it is skipped as poison, not taken as published', async () => {
    const poisoned: string[] = [];
    const bus = logBus({
      [RCS.state]: [applied('ns/web', 'web', 0), applied('ns/f1', 'p', 1), applied('~watermark', 'x', 2)],
    });
    const [restored] = await restoreKinds(bus, [kind(RCS, poisoned)]);
    assert.equal(restored?.state.has('ns/web'), true);
    assert.equal(restored?.state.has('ns/f1'), false);
    assert.equal(restored?.state.size, 1);
    assert.equal(restored?.skipped, 2);
    assert.match(poisoned[0] ?? '', /^1: .*record key "ns\/f1" does not name its object \("ns\/p"\)/);
    assert.match(restored?.state.inventories()[0] ?? '', /^1:/, 'its inventory counts the one object');
  });

  it("given two kinds, then their state topics are read in one group and their histories' tails in another, each record restored into its own kind", async () => {
    const bus = logBus({
      [RCS.state]: [applied('ns/web', 'web', 0), marker(1, 1)],
      [RCS.history]: [applied('ns/web', 'web', 0), applied('ns/api', 'api', 1)],
      [PODS.state]: [applied('ns/web-1', 'web-1', 0), marker(1, 2)],
      [PODS.history]: [applied('ns/web-1', 'web-1', 0), applied('ns/web-2', 'web-2', 1)],
    });
    const [rcs, pods] = await restoreKinds(bus, [kind(RCS), kind(PODS)]);
    assert.deepEqual(
      bus.joins.map((o) => [...o.topics].sort()),
      [
        [PODS.state, RCS.state],
        [PODS.history, RCS.history],
      ],
    );
    assert.deepEqual([rcs?.state.has('ns/web'), rcs?.state.has('ns/api'), rcs?.state.size], [true, true, 2]);
    assert.deepEqual([pods?.state.has('ns/web-1'), pods?.state.size], [true, 1], 'the tail past its marker is empty');
    assert.deepEqual(
      rcs?.tail.map((r) => r.key),
      ['ns/api'],
      "only the history past the state's marker is the tail",
    );
    assert.deepEqual([rcs?.next.get(0), pods?.next.get(0)], [2n, 2n]);
  });
});
