import type { TopicRecords } from '@kcm-bus/runtime/bus/index.ts';
import { namespacePartitionKey, partitionFor } from '@kcm-bus/runtime/partition/index.ts';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/index.ts';
import type { Logger } from '@kcm-bus/runtime/service/index.ts';
import type { ServiceContext } from '@kcm-bus/runtime/service/main.node.ts';
import { stateTopic, watchTopic, type WatchedKind } from '@kcm-bus/schemas/kinds.ts';
import { EPOCH_HEADER, WATERMARK_KEY } from '@kcm-bus/schemas/watch-record.ts';
import { loadWatchSchema } from '@kcm-bus/schemas/watch-schemas.fs.ts';
import { openKindTopic, type KindTopic, type KindTopics } from './kind-topic.ts';
import type { promWatcherMetrics } from './metrics.prom.ts';
import { restoreKinds, type KindToRestore, type RestorePorts, type Restored } from './restore-kind.ts';
import type { StateCheckpoints } from './state-checkpoints.ts';
import type { WatcherPublishing } from './watcher-publishing.ts';

/** OpenedKind is a kind restored from its topics and ready to publish: what startKindWatcher runs on. */
export type OpenedKind = {
  readonly kind: WatchedKind;
  readonly topics: KindTopics;
  readonly partitions: number;
  readonly topic: KindTopic;
  readonly restored: Restored;
  readonly log: Logger;
};

type Shared = {
  readonly publishing: WatcherPublishing;
  readonly checkpoints: StateCheckpoints;
  readonly metrics: ReturnType<typeof promWatcherMetrics>;
};

/** PreparedKind is a kind whose schema is registered under both its topics' subjects: what its restore needs. */
export type PreparedKind = {
  readonly kind: WatchedKind;
  readonly topics: KindTopics;
  readonly partitions: number;
  readonly history: Serde;
  readonly toRestore: KindToRestore;
  readonly log: Logger;
};

/** prepareKind registers the kind's schema under both topics' subjects (BACKWARD), with a serde for each topic. */
export async function prepareKind(ctx: ServiceContext, kind: WatchedKind, partitions: number): Promise<PreparedKind> {
  const log = ctx.log.child({ kind: kind.kind });
  const topics = { history: watchTopic(kind), state: stateTopic(kind) };
  const [history, state] = (await Promise.all(
    [topics.history, topics.state].map(async (topic) => {
      const serde = new Serde(ctx.schemaRegistry, topic, loadWatchSchema(kind), (s) => new AvroCodec(s));
      await serde.schemaId();
      await ctx.schemaRegistry.setCompatibility(`${topic}-value`, 'BACKWARD');
      return serde;
    }),
  )) as [Serde, Serde];
  const placed = { partitions, partitionOf: (key: string) => partitionFor(namespacePartitionKey(key), partitions) };
  const onPoison = (offset: string, err: unknown): void =>
    log.error("a record of the kind's topics cannot be decoded: skipped (the first of them; the count follows)", {
      offset,
      err,
    });
  return { kind, topics, partitions, history, toRestore: { topics, serde: state, placed, onPoison }, log };
}

/**
 * openKinds restores what was published of every kind from its topics (restoreKinds: every kind's state topic in one
 * read, then every kind's history tail in another), and opens each (openKind).
 */
export async function openKinds(
  bus: RestorePorts,
  kinds: readonly PreparedKind[],
  shared: Shared,
): Promise<OpenedKind[]> {
  const restored = await restoreKinds(
    bus,
    kinds.map((k) => k.toRestore),
  );
  return Promise.all(kinds.map((k, i) => openKind(k, restored[i]!, shared)));
}

/**
 * openKind opens a restored kind's topic and registers it with the checkpoints, the restored history tail queued for
 * the first one.
 */
async function openKind(k: PreparedKind, restored: Restored, shared: Shared): Promise<OpenedKind> {
  const { kind, topics, partitions, log } = k;
  log.info('restored', {
    records: restored.records,
    skipped: restored.skipped,
    objects: restored.state.size,
    resumeFrom: restored.resumeFrom,
    historyTail: restored.tail.length,
  });
  const seen = new Set<string>();
  const onUnknown = (path: string): void => {
    shared.metrics.unknownField(kind.kind, path);
    if (!seen.has(path)) log.warn('a field the schema lacks is published in unknownFields', { path });
    seen.add(path);
  };
  const marker = restored.watermark ?? (await k.history.encode(noWatermark(restored.resumeFrom))).bytes;
  const topic = openKindTopic(topics, partitions, { ...shared, serde: k.history, onUnknown }, marker);
  shared.checkpoints.register(
    { state: topics.state, history: topics.history, partitions, marker: topic.marker },
    restored.next,
  );
  shared.checkpoints.add(topics.state, restored.tail, []);
  return { kind, topics, partitions, topic, restored, log };
}

/** noWatermark is the marker of a kind that never had a watermark: complete up to nothing yet (the epoch of time). */
function noWatermark(resourceVersion: string | undefined): {
  type: 'Watermark';
  key: typeof WATERMARK_KEY;
  resourceVersion: string;
  observedAt: string;
  object: null;
} {
  return {
    type: 'Watermark',
    key: WATERMARK_KEY,
    resourceVersion: resourceVersion ?? '',
    observedAt: new Date(0).toISOString(),
    object: null,
  };
}

/**
 * fenceRecords are a new watcher's fence on a kind's history: its latest watermark (no newer time than it vouched
 * for before) to every partition, stamped with the new epoch, so every reader drops what an older watcher writes
 * after it.
 */
export function fenceRecords(o: OpenedKind, epoch: string): TopicRecords {
  const value = o.topic.marker();
  return {
    topic: o.topics.history,
    records: Array.from({ length: o.partitions }, (_, partition) => ({
      key: WATERMARK_KEY,
      value,
      partition,
      headers: { [EPOCH_HEADER]: epoch },
    })),
  };
}
