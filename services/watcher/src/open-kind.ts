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
import { restoreKind, type Restored } from './restore-kind.ts';
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

/**
 * openKind registers the kind's schema under both topics' subjects (BACKWARD), restores what was published from its
 * topics, registers it with the checkpoints (the restored history tail queued for the first one) and opens its topic.
 */
export async function openKind(
  ctx: ServiceContext,
  kind: WatchedKind,
  partitions: number,
  shared: Shared,
): Promise<OpenedKind> {
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
  const partitionOf = (key: string): number => partitionFor(namespacePartitionKey(key), partitions);
  const restored = await restoreKind(ctx.bus, topics, state, { partitions, partitionOf }, (offset, err) =>
    log.error("a record of the kind's topics cannot be decoded: skipped (the first of them; the count follows)", {
      offset,
      err,
    }),
  );
  log.info('restored', {
    records: restored.records,
    skipped: restored.skipped,
    objects: restored.state.size,
    resumeFrom: restored.resumeFrom,
    historyTail: restored.tail.length,
  });
  const seen = new Set<string>();
  const topic = openKindTopic(
    topics,
    partitions,
    {
      ...shared,
      serde: history,
      onUnknown: (path) => {
        shared.metrics.unknownField(kind.kind, path);
        if (!seen.has(path)) log.warn('a field the schema lacks is published in unknownFields', { path });
        seen.add(path);
      },
    },
    restored.watermark ?? (await history.encode(noWatermark(restored.resumeFrom)).then((e) => e.bytes)),
  );
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
