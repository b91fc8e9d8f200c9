import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BusRecord } from '@kcm-bus/runtime/bus/index.ts';
import { restoreKind, type RestorePorts } from './restore-kind.ts';

const TOPICS = { history: 'kcm.watch.replicationcontrollers', state: 'kcm.state.replicationcontrollers' };

/** applied is a state record of an Applied event under `key` whose object is `ns/name` (JSON stands in for Avro). */
const applied = (key: string, name: string, offset: number): BusRecord => ({
  key: Buffer.from(key),
  value: Buffer.from(
    JSON.stringify({
      type: 'Applied',
      key,
      resourceVersion: String(offset + 10),
      observedAt: '2026-11-29T00:00:00Z',
      object: { metadata: { namespace: 'ns', name, uid: `uid-${name}`, resourceVersion: String(offset + 10) } },
    }),
  ),
  offset: String(offset),
  timestamp: '0',
  headers: {},
});

/** ports serve the state topic's records on partition 0 and an empty history. */
const ports = (records: readonly BusRecord[]): RestorePorts => ({
  readToEnd: async (_topic, onRecord) => {
    for (const r of records) await onRecord(r, 0);
  },
  offsets: async () => [],
  joinGroup: () => Promise.reject(new Error('no history to read')),
});
const serde = { decode: async (bytes: Buffer) => ({ value: JSON.parse(bytes.toString()) as unknown, schemaId: 1 }) };

describe('restoreKind: what the state topic says was published', () => {
  it('given a record whose key does not name its object (which every consumer refuses), then it is skipped as poison, not taken as published', async () => {
    const poisoned: string[] = [];
    const restored = await restoreKind(
      ports([applied('ns/web', 'web', 0), applied('ns/f1', 'p', 1), applied('~watermark', 'x', 2)]),
      TOPICS,
      serde,
      { partitions: 1, partitionOf: () => 0 },
      (offset, err) => poisoned.push(`${offset}: ${String(err)}`),
    );
    assert.equal(restored.state.has('ns/web'), true);
    assert.equal(restored.state.has('ns/f1'), false);
    assert.equal(restored.state.size, 1);
    assert.equal(restored.skipped, 2);
    assert.match(poisoned[0] ?? '', /^1: .*record key "ns\/f1" does not name its object \("ns\/p"\)/);
    assert.match(restored.state.inventories()[0] ?? '', /^1:/, 'its inventory counts the one object');
  });
});
