import { KubeConfig, loadYaml } from '@kubernetes/client-node';
import { loadKubeConfig } from '@kcm-bus/runtime/credentials/credentials.fs.ts';
import type { CredentialCache } from '@kcm-bus/runtime/credentials/credentials.ts';
import { historyTopicConfigs, publisherFenced, STATE_TOPIC_CONFIGS } from '@kcm-bus/runtime/bus/bus.ts';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/serde.ts';
import { serviceMain, type ServiceContext } from '@kcm-bus/runtime/service/main.node.ts';
import { stateTopic, watchedKind, watchTopic, type WatchedKind } from '@kcm-bus/schemas/kinds.ts';
import { loadWatchSchema } from '@kcm-bus/schemas/watch-schemas.fs.ts';
import { kubeListWatcher } from './api.kube.ts';
import { WATCHER_FLAGS } from './flags.ts';
import { startKindWatcher, type KindWatcher } from './kind-watcher.ts';
import { promWatcherMetrics } from './metrics.prom.ts';
import { openKindTopic, restoreKind } from './kind-topic.ts';
import { WatermarkPacer } from './watermark-pacer.ts';
import { openWatcherTransactions, type WatcherTransactions } from './watcher-transactions.ts';

/** TXN_GAP_MS is the least time between two of the watcher's transactions (PumpOptions.txnGapMs). */
const TXN_GAP_MS = 3;

/** clock is the watcher's one clock: the kinds stamp their records and changes with it, and the pacer polls by it. */
const clock = (): Date => new Date();
/** clockMs is the same clock in ms, as the pacer and the transactions read it. */
const clockMs = (): number => clock().getTime();

await serviceMain('watcher', WATCHER_FLAGS, async (ctx) => {
  const kc = new KubeConfig();
  const credentials = loadKubeConfig(kc, ctx.flags.string('kubeconfig') || null, loadYaml);
  const kinds = ctx.flags.list('kinds').map(watchedKind);
  const history = historyTopicConfigs(ctx.flags.number('audit-window-seconds') * 1000);
  const partitions = await ctx.bus.ensureTopics(kinds.flatMap((k) => [
    { topic: watchTopic(k), partitions: ctx.flags.number('partitions'), configs: history },
    { topic: stateTopic(k), partitions: ctx.flags.number('partitions'), configs: STATE_TOPIC_CONFIGS },
  ]));
  const metrics = promWatcherMetrics(ctx.registry);
  const fatal = (err: unknown): void => ctx.fatal('publishing was fenced: a newer watcher took over; exiting', err);
  const pacer = new WatermarkPacer({ intervalMs: ctx.flags.number('watermark-interval-ms'), idleIntervalMs: ctx.flags.number('watermark-idle-interval-ms') }, clockMs);
  const quiet = new Set(ctx.flags.list('watermark-quiet-kinds').map(watchedKind));
  const prompt = new Set(ctx.flags.list('watermark-prompt-kinds').map(watchedKind));
  const transactions = await openWatcherTransactions(ctx.bus, kinds, TXN_GAP_MS, clockMs);
  const started = await Promise.all(kinds.map((k) => startKind(ctx, { kc, credentials }, k, partitions.get(watchTopic(k)) ?? 1, { metrics, pacer, quiet: quiet.has(k), prompt: prompt.has(k), send: transactions.send, onFatal: fatal })));
  return {
    probes: { healthy: () => started.every((s) => s.alive()), ready: () => started.every((s) => s.synced() && s.publishing()) },
    stop: async () => {
      await Promise.all(started.map((s) => s.stop()));
      await transactions.close();
    },
  };
});

/** KindShared is what every kind of the watcher shares: metrics, the pacer, the transactions, and the exit on fencing. */
type KindShared = {
  readonly metrics: ReturnType<typeof promWatcherMetrics>; readonly pacer: WatermarkPacer; readonly quiet: boolean; readonly prompt: boolean;
  readonly send: WatcherTransactions['send']; readonly onFatal: (err: unknown) => void;
};

async function startKind(ctx: ServiceContext, api: { kc: KubeConfig; credentials: CredentialCache }, kind: WatchedKind, partitions: number,
  shared: KindShared): Promise<KindWatcher> {
  const log = ctx.log.child({ kind: kind.kind });
  const registry = ctx.schemaRegistry;
  const topicName = watchTopic(kind);
  const serde = new Serde(registry, topicName, loadWatchSchema(kind), (s) => new AvroCodec(s));
  await serde.schemaId();
  await registry.setCompatibility(`${topicName}-value`, 'BACKWARD');
  const state = new Serde(registry, stateTopic(kind), loadWatchSchema(kind), (s) => new AvroCodec(s));
  await state.schemaId();
  await registry.setCompatibility(`${stateTopic(kind)}-value`, 'BACKWARD');
  const seen = new Set<string>();
  const { send, ...common } = shared;
  const topic = openKindTopic(send, { history: topicName, state: stateTopic(kind) }, partitions, serde, (path) => {
    shared.metrics.unknownField(kind.kind, path);
    if (!seen.has(path)) log.warn('a field the schema lacks is published in unknownFields', { path });
    seen.add(path);
  });
  const restored = await restoreKind(ctx.bus, stateTopic(kind), state, (offset, err) => log.error('a record of the state topic cannot be decoded: skipped (the first of them; the count follows)', { offset, err }));
  log.info('restored from the state topic', { records: restored.records, skipped: restored.skipped, objects: restored.state.size, resumeFrom: restored.resumeFrom });
  return startKindWatcher(kind, {
    pageSize: ctx.flags.number('page-size'), minWatchTimeoutSeconds: ctx.flags.number('min-watch-timeout-seconds'),
    idleTimeoutMs: ctx.flags.number('watch-idle-timeout-seconds') * 1000,
    // txnGapMs: S1 at 20/30 met CONCURRENT_TRANSACTIONS on 1 transaction in 5 without it, each refusal an
    // AddPartitionsToTxn and a Metadata request more. maxTxnGapMs: S1 at 1000/1000 with a fixed 10 ms transaction gap
    // (one run) had 27 % fewer transactions than with 3 ms; a lone change still waits 3 ms at most.
    keepManagedFields: ctx.flags.boolean('keep-managed-fields'), maxBatch: 500, highWater: 5000, txnGapMs: TXN_GAP_MS, maxTxnGapMs: 10,
  }, {
    api: await kubeListWatcher(api.kc, api.credentials, kind), publish: topic.publish, state: restored.state, resumeFrom: restored.resumeFrom,
    ...common, log, now: clock, fenced: publisherFenced,
  });
}
