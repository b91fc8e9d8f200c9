import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { Partitioners, type PartitionMetadata } from 'kafkajs';
import { namespacePartitionKey, partitionFor } from '../partition/murmur2.ts';

/** metadata is a topic of n healthy partitions, as kafkajs's partitioner receives it. */
function metadata(n: number): PartitionMetadata[] {
  return Array.from({ length: n }, (_, partitionId) => ({
    partitionErrorCode: 0,
    partitionId,
    leader: 0,
    replicas: [0],
    isr: [0],
  }));
}

/** randomKey is a printable or arbitrary-Unicode string of 0-40 code units. */
function randomKey(): string {
  const bytes = randomBytes(41);
  const length = bytes[0]! % 41;
  const unicode = bytes[1]! % 2 === 0;
  return Array.from(bytes.subarray(0, length), (b, i) =>
    unicode ? String.fromCodePoint((((b << 8) | i) % 0xd7ff) + 1) : String.fromCharCode(32 + (b % 95)),
  ).join('');
}

describe('partitionFor against kafkajs DefaultPartitioner (Java-compatible)', () => {
  for (const n of [1, 3, 12, 50, 1000]) {
    it(`given 2000 random keys and ${n} partitions, then both pick the same partition for every key`, () => {
      const partitioner = Partitioners.DefaultPartitioner();
      const partitionMetadata = metadata(n);
      for (let i = 0; i < 2000; i++) {
        const key = randomKey();
        const expected = partitioner({ topic: 't', partitionMetadata, message: { key, value: null } });
        assert.equal(partitionFor(key, n), expected, `key ${JSON.stringify(key)}`);
      }
    });
  }

  it('given keys of 2-, 3- and 4-byte UTF-8 characters, then both hash the UTF-8 bytes alike', () => {
    const partitioner = Partitioners.DefaultPartitioner();
    const partitionMetadata = metadata(97);
    for (const key of ['é', 'ns-ü/ä', '日本語', '😀', 'a😀b€c']) {
      assert.equal(
        partitionFor(key, 97),
        partitioner({ topic: 't', partitionMetadata, message: { key, value: null } }),
      );
    }
  });

  it('given object keys, then partitioning their namespace matches a producer keyed by namespace', () => {
    const partitioner = Partitioners.DefaultPartitioner();
    const partitionMetadata = metadata(12);
    for (const key of ['kube-system/coredns', 'default/web-1', 'node-1', 'team-ä/x']) {
      const message = { key: namespacePartitionKey(key), value: null };
      assert.equal(
        partitionFor(namespacePartitionKey(key), 12),
        partitioner({ topic: 't', partitionMetadata, message }),
      );
    }
  });
});
