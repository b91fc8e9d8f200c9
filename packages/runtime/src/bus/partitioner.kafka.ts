import type { ICustomPartitioner } from 'kafkajs';
import { namespacePartitionKey, partitionFor } from '../partition/murmur2.ts';

/**
 * namespacePartitioner places a record by the namespace of its key (`namespace/name`), or by the whole key
 * for cluster-scoped objects, with Kafka's Java murmur2: one namespace's objects of every kind share a
 * partition number, which is what co-partitioned consumers rely on. An explicit partition wins.
 */
export const namespacePartitioner: ICustomPartitioner =
  () =>
  ({ partitionMetadata, message }) => {
    if (typeof message.partition === 'number') return message.partition;
    const key = message.key === null || message.key === undefined ? '' : message.key.toString();
    return partitionFor(namespacePartitionKey(key), partitionMetadata.length);
  };
