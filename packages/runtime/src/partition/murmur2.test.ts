import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { murmur2, namespacePartitionKey, partitionFor, toPositive } from './murmur2.ts';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('murmur2', () => {
  // Kafka's own vectors: clients/src/test/java/org/apache/kafka/common/utils/UtilsTest.java, testMurmur2.
  const kafkaVectors: readonly (readonly [string, number])[] = [
    ['21', -973932308],
    ['foobar', -790332482],
    ['a-little-bit-long-string', -985981536],
    ['a-little-bit-longer-string', -1486304829],
    ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
    ['abc', 479470107],
  ];
  for (const [input, expected] of kafkaVectors) {
    it(`given "${input}", then it hashes to Kafka's ${expected}`, () => {
      assert.equal(murmur2(utf8(input)), expected);
    });
  }

  it('given inputs of every tail length 0-3, then each hash is a distinct signed 32-bit int', () => {
    const hashes = ['', 'a', 'ab', 'abc', 'abcd'].map((s) => murmur2(utf8(s)));
    assert.equal(new Set(hashes).size, 5);
    for (const h of hashes) assert.equal(h, h | 0);
  });

  it('given bytes >= 0x80, then they count as unsigned like Java `b & 0xff`', () => {
    assert.notEqual(murmur2(Uint8Array.of(0xff, 0x80, 0x7f)), murmur2(Uint8Array.of(0x7f, 0x80, 0xff)));
    assert.equal(murmur2(utf8('é')), murmur2(Uint8Array.of(0xc3, 0xa9)));
  });
});

describe('toPositive', () => {
  it('given negative ints, then only the sign bit is cleared', () => {
    assert.deepEqual([toPositive(-1), toPositive(-2147483648), toPositive(5)], [0x7fffffff, 0, 5]);
  });
});

describe('partitionFor', () => {
  it('given a Kafka vector key, then the partition is toPositive(hash) % n', () => {
    assert.equal(partitionFor('foobar', 12), (-790332482 & 0x7fffffff) % 12);
    assert.equal(partitionFor('abc', 7), 479470107 % 7);
  });

  it('given one partition, then every key lands on 0', () => {
    assert.deepEqual(
      ['a', 'kube-system', ''].map((k) => partitionFor(k, 1)),
      [0, 0, 0],
    );
  });

  it('given a non-positive or fractional partition count, then it throws', () => {
    assert.throws(() => partitionFor('a', 0), RangeError);
    assert.throws(() => partitionFor('a', 1.5), RangeError);
  });
});

describe('namespacePartitionKey', () => {
  it('given a namespaced key, then it is the namespace', () => {
    assert.equal(namespacePartitionKey('kube-system/coredns-abc'), 'kube-system');
  });

  it('given a cluster-scoped key, then it is the name', () => {
    assert.equal(namespacePartitionKey('node-1'), 'node-1');
  });

  it('given a pod and its ReplicaSet in one namespace, then they share a partition', () => {
    const partition = (key: string) => partitionFor(namespacePartitionKey(key), 12);
    assert.equal(partition('team-a/web-7d9f-x2k'), partition('team-a/web-7d9f'));
  });
});
