const SEED = 0x9747b28c;
const M = 0x5bd1e995;
const R = 24;
const utf8 = new TextEncoder();

/**
 * murmur2 is Kafka's 32-bit MurmurHash2 of a byte array as a signed 32-bit int, bit for bit what Java clients and
 * kafkajs's DefaultPartitioner compute, so keys we route by hand land on the partitions producers choose.
 * Mirrors org.apache.kafka.common.utils.Utils.murmur2.
 */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  let h = SEED ^ length;
  const tail = length & ~3;
  for (let i = 0; i < tail; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    k = Math.imul(k, M);
    k ^= k >>> R;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  const rest = length % 4;
  if (rest >= 3) h ^= data[tail + 2]! << 16;
  if (rest >= 2) h ^= data[tail + 1]! << 8;
  if (rest >= 1) h = Math.imul(h ^ data[tail]!, M);
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h;
}

/**
 * toPositive clears the sign bit, as Kafka does before a modulo (not abs, which leaves Java's MIN_VALUE negative).
 * Mirrors Utils.toPositive.
 */
export function toPositive(x: number): number {
  return x & 0x7fffffff;
}

/**
 * partitionFor is the partition Kafka's default partitioner picks for a keyed record: toPositive(murmur2(utf8(key)))
 * % numPartitions. Mirrors BuiltInPartitioner.partitionForKey (DefaultPartitioner before Kafka 3.3).
 */
export function partitionFor(key: string, numPartitions: number): number {
  if (!Number.isInteger(numPartitions) || numPartitions < 1) {
    throw new RangeError(`numPartitions must be a positive integer, got ${numPartitions}`);
  }
  return toPositive(murmur2(utf8.encode(key))) % numPartitions;
}

/**
 * namespacePartitionKey is the record key an object is partitioned by: its namespace for `namespace/name`, its
 * name for a cluster-scoped object. Partitioning namespaced kinds by namespace puts one namespace's objects of every
 * kind on the same partition number, so a controller sees a pod and its owner in the same consumer.
 */
export function namespacePartitionKey(objectKey: string): string {
  const slash = objectKey.indexOf('/');
  return slash < 0 ? objectKey : objectKey.slice(0, slash);
}
