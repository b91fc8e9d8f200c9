import type { Bus, OutgoingRecord } from '@kcm-bus/runtime/bus/bus.ts';
import type { Serde } from '@kcm-bus/runtime/codec/serde.ts';
import { classifyFault } from '@kcm-bus/runtime/faults/record-fault.ts';
import { compareResourceVersion, type WatchRecord } from '@kcm-bus/schemas/watch-record.ts';
import type { KubeObject } from './events.ts';
import { PublishedState } from './store.ts';
import type { WatcherTransactions } from './watcher-transactions.ts';

/** KindTopics are one kind's history and state topics. */
export type KindTopics = { readonly history: string; readonly state: string };

/** KindTopic is one kind's topics as the watcher writes them: fenced transactions to both at once. */
export type KindTopic = {
  readonly publish: (events: readonly WatchRecord<KubeObject>[]) => Promise<void>;
};

/**
 * openKindTopic writes one kind's batches through the watcher's transactions (send, see openWatcherTransactions).
 * Every batch writes the same records to the history topic and to the state topic in one transaction: a Deleted
 * record is followed by the key's tombstone; a watermark goes to every partition. The history is the audit trail;
 * the state topic, compacted, is what a restarting member restores from.
 */
export function openKindTopic(send: WatcherTransactions['send'], topics: KindTopics, partitions: number, serde: Serde,
  onUnknown: (path: string) => void): KindTopic {
  const encode = async (event: WatchRecord<KubeObject>): Promise<Buffer> => {
    const { bytes, unknownPaths } = await serde.encode(event);
    for (const path of unknownPaths) onUnknown(path.replace(/^object\./, ''));
    return bytes;
  };
  return {
    async publish(events) {
      const records: OutgoingRecord[] = [];
      for (const event of events) {
        const value = await encode(event);
        if (event.type === 'Watermark') for (let p = 0; p < partitions; p++) records.push({ key: event.key, value, partition: p });
        else records.push({ key: event.key, value }, ...(event.type === 'Deleted' ? [{ key: event.key, value: null }] : []));
      }
      await send([{ topic: topics.history, records }, { topic: topics.state, records }]);
    },
  };
}

/** Restored is what a kind's topic says was published: live objects, and the resourceVersion to resume from. */
export type Restored = { readonly state: PublishedState; readonly resumeFrom: string | undefined; readonly records: number; readonly skipped: number };

/**
 * restoreKind reads a kind's state topic from the beginning to rebuild what was published (after a restart): about
 * one record per live object, whatever the length of the history. A record that cannot be decoded (not written by a
 * watcher: the topic is open to anyone who can produce) is skipped and reported, never the end of the watcher; a
 * transient fault (registry unreachable) fails the restore, and the restarted watcher tries again.
 */
export async function restoreKind(bus: Bus, topic: string, serde: Serde, onPoison: (offset: string, err: unknown) => void): Promise<Restored> {
  const state = new PublishedState();
  let resumeFrom: string | undefined;
  let records = 0;
  let skipped = 0;
  await bus.readToEnd(topic, async (record) => {
    records++;
    const key = record.key?.toString() ?? '';
    if (record.value === null) return state.apply('Deleted', key, {});
    const event = await decodeRecord(serde, record.value).catch((err: unknown) => {
      if (classifyFault(err) === 'transient') throw err;
      if (skipped++ === 0) onPoison(record.offset, err);
    });
    if (event === undefined) return;
    if (resumeFrom === undefined || laterVersion(event.resourceVersion, resumeFrom)) resumeFrom = event.resourceVersion;
    if (event.type !== 'Watermark') state.apply(event.type, key, event.object as KubeObject);
  });
  return { state, resumeFrom, records, skipped };
}

async function decodeRecord(serde: Serde, value: Buffer): Promise<WatchRecord<KubeObject>> {
  return (await serde.decode(value)).value as WatchRecord<KubeObject>;
}

/**
 * laterVersion tells whether resourceVersion a is later than b. The API says resourceVersions are opaque; the
 * apiserver's are etcd revisions (integers), and only a watcher resuming across restarts compares them: one it
 * cannot order (not an integer) that differs is taken as the later, so the watcher resumes from the last it read.
 */
function laterVersion(a: string, b: string): boolean {
  return (compareResourceVersion(a, b) ?? (a === b ? 0 : 1)) > 0;
}
