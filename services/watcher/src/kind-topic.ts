import type { OutgoingRecord } from '@kcm-bus/runtime/bus/index.ts';
import type { Serde } from '@kcm-bus/runtime/codec/index.ts';
import { namespacePartitionKey, partitionFor } from '@kcm-bus/runtime/partition/index.ts';
import { EPOCH_HEADER, INVENTORY_HEADER, type WatchRecord } from '@kcm-bus/schemas/watch-record.ts';
import type { KubeObject, PublishedRecord } from './events.ts';
import type { StateCheckpoints } from './state-checkpoints.ts';
import type { WatcherPublishing } from './watcher-publishing.ts';

/** KindTopics are one kind's history and state topics. */
export type KindTopics = { readonly history: string; readonly state: string };

/** KindTopic is one kind's topics as the watcher writes them. */
export type KindTopic = {
  /** publish writes events to the history (atomic: in one transaction, as a relist must) and queues them for the state. */
  readonly publish: (events: readonly PublishedRecord[], atomic: boolean) => Promise<void>;
  /** marker is the kind's latest watermark record, encoded: the value of its checkpoint markers. */
  readonly marker: () => Buffer;
};

/** KindTopicPorts are what a kind's topic writes through. */
export type KindTopicPorts = {
  readonly publishing: Pick<WatcherPublishing, 'epoch' | 'history' | 'inTransaction'>;
  readonly checkpoints: Pick<StateCheckpoints, 'add'>;
  readonly serde: Pick<Serde, 'encode'>;
  readonly onUnknown: (path: string) => void;
};

/**
 * openKindTopic writes one kind's batches: every record to the history topic, in the partition of its namespace (a
 * watermark to every partition, with that partition's inventory in INVENTORY_HEADER), stamped with the watcher's epoch; once the history took them, the same records (a
 * Deleted followed by the key's tombstone, watermarks aside) are queued for the next checkpoint of the state topic.
 * The history is the live feed, the audit trail and the tail a restore reads past the state's markers.
 */
export function openKindTopic(
  topics: KindTopics,
  partitions: number,
  ports: KindTopicPorts,
  watermark: Buffer,
): KindTopic {
  let marker = watermark;
  const headers = { [EPOCH_HEADER]: ports.publishing.epoch };
  const partitionOf = (key: string): number => partitionFor(namespacePartitionKey(key), partitions);
  return {
    marker: () => marker,
    async publish(events, atomic) {
      const history: OutgoingRecord[] = [];
      const state: OutgoingRecord[] = [];
      for (const { inventory, ...event } of events) {
        const value = await encode(ports, event);
        if (event.type === 'Watermark') {
          for (let p = 0; p < partitions; p++) {
            const of = inventory?.[p];
            const counted: Record<string, string> = of === undefined ? {} : { [INVENTORY_HEADER]: of };
            history.push({ key: event.key, value, partition: p, headers: { ...headers, ...counted } });
          }
          marker = value;
          continue;
        }
        const record = { key: event.key, value, partition: partitionOf(event.key), headers };
        history.push(record);
        state.push(record, ...(event.type === 'Deleted' ? [{ ...record, value: null }] : []));
      }
      const batches = [{ topic: topics.history, records: history }];
      const produced = atomic ? await ports.publishing.inTransaction(batches) : await ports.publishing.history(batches);
      ports.checkpoints.add(topics.state, state, produced);
    },
  };
}

async function encode(ports: KindTopicPorts, event: WatchRecord<KubeObject>): Promise<Buffer> {
  const { bytes, unknownPaths } = await ports.serde.encode(event);
  for (const path of unknownPaths) ports.onUnknown(path.replace(/^object\./, ''));
  return bytes;
}
