import { KubeConfig, loadYaml } from '@kubernetes/client-node';
import { loadKubeConfig } from '@kcm-bus/runtime/credentials/credentials.fs.ts';
import type { CredentialCache } from '@kcm-bus/runtime/credentials/index.ts';
import { digestKeyPath, readDigestKey } from '@kcm-bus/runtime/signing/digest-key.fs.ts';
import { historyTopicConfigs, publisherFenced, STATE_TOPIC_CONFIGS } from '@kcm-bus/runtime/bus/index.ts';
import { serviceMain, type ServiceContext } from '@kcm-bus/runtime/service/main.node.ts';
import { stateTopic, watchedKind, watchTopic, type WatchedKind } from '@kcm-bus/schemas/kinds.ts';
import { kubeListWatcher } from './api.kube.ts';
import type { KubeObject } from './events.ts';
import { WATCHER_FLAGS } from './flags.ts';
import { objectTransform, startKindWatcher, type KindWatcher } from './kind-watcher.ts';
import { promWatcherMetrics } from './metrics.prom.ts';
import { fenceRecords, openKinds, prepareKind, type OpenedKind } from './open-kind.ts';
import { runCheckpoints, StateCheckpoints } from './state-checkpoints.ts';
import { WatermarkPacer } from './watermark-pacer.ts';
import { openWatcherPublishing, startupRetried } from './watcher-publishing.ts';
import { GAP_MS, publicationPace, type PublicationPace } from './publication-pace.ts';

/** clock is the watcher's one clock: the kinds stamp their records and changes with it, and the pacer polls by it. */
const clock = (): Date => new Date();
/** clockMs is the same clock in ms, as the pacer and the transactions read it. */
const clockMs = (): number => clock().getTime();

await serviceMain('watcher', WATCHER_FLAGS, async (ctx) => {
  const kc = new KubeConfig();
  const credentials = loadKubeConfig(kc, ctx.flags.string('kubeconfig') || null, loadYaml);
  const kinds = ctx.flags.list('kinds').map(watchedKind);
  const digestFile = digestKeyPath(ctx.flags.string('secret-digest-key-file'), ctx.flags.string('signing-dir'));
  const digest = kinds.some((k) => k.withheld !== undefined) ? readDigestKey(digestFile) : undefined;
  const keepManagedFields = ctx.flags.boolean('keep-managed-fields');
  const transforms = new Map(kinds.map((k) => [k, objectTransform(k, keepManagedFields, digest)]));
  const partitions = await ensureKindTopics(ctx, kinds);
  const metrics = promWatcherMetrics(ctx.registry);
  const fatal = (err: unknown): void => ctx.fatal('publishing was fenced: a newer watcher took over; exiting', err);
  const publishing = await openWatcherPublishing(ctx.bus, kinds, GAP_MS, clockMs);
  const checkpoints = new StateCheckpoints(publishing.inTransaction, publishing.epoch);
  const prepared = await Promise.all(kinds.map((k) => prepareKind(ctx, k, partitions.get(watchTopic(k)) ?? 1)));
  const opened = await openKinds(ctx.bus, prepared, { publishing, checkpoints, metrics });
  // The first checkpoint writes what the restores read of the history tails, and fences the history: every partition
  // gets a record of this watcher's epoch, past which the records of an older watcher are dropped by every reader.
  await startupRetried(() => checkpoints.flush(opened.map((o) => fenceRecords(o, publishing.epoch))));
  ctx.log.info('epoch claimed, history fenced', { epoch: publishing.epoch, kinds: kinds.map((k) => k.plural) });
  const checkpointing = runCheckpoints(
    checkpoints,
    {
      intervalMs: ctx.flags.number('state-checkpoint-interval-ms'),
      idleIntervalMs: ctx.flags.number('watermark-idle-interval-ms'),
      fullIntervalMs: ctx.flags.number('state-checkpoint-full-interval-ms'),
    },
    clockMs,
    {
      fenced: publisherFenced,
      onFatal: fatal,
      onRetry: (err) => ctx.log.warn('a state checkpoint failed: retrying at the next interval', { err }),
    },
  );
  const pacer = new WatermarkPacer(
    {
      intervalMs: ctx.flags.number('watermark-interval-ms'),
      idleIntervalMs: ctx.flags.number('watermark-idle-interval-ms'),
    },
    clockMs,
  );
  const quiet = new Set(ctx.flags.list('watermark-quiet-kinds').map(watchedKind));
  const prompt = new Set(ctx.flags.list('watermark-prompt-kinds').map(watchedKind));
  const lingering = new Set(ctx.flags.list('publish-linger-kinds').map(watchedKind));
  const started = await Promise.all(
    opened.map((o) =>
      startKind(ctx, { kc, credentials }, o, {
        metrics,
        pacer,
        transform: transforms.get(o.kind)!,
        quiet: quiet.has(o.kind),
        prompt: prompt.has(o.kind),
        pace: publicationPace(o.kind, lingering, ctx.flags.number('publish-linger-ms')),
        onFatal: fatal,
      }),
    ),
  );
  return {
    probes: {
      healthy: () => started.every((s) => s.alive()),
      ready: () => started.every((s) => s.synced() && s.publishing()),
    },
    stop: async () => {
      await Promise.all(started.map((s) => s.stop()));
      await checkpointing.stop();
      await publishing.close();
    },
  };
});

/** ensureKindTopics creates each kind's history and state topics (or sets their configs) and returns the partition counts. */
async function ensureKindTopics(ctx: ServiceContext, kinds: readonly WatchedKind[]): Promise<Map<string, number>> {
  const history = historyTopicConfigs(ctx.flags.number('audit-window-seconds') * 1000);
  return ctx.bus.ensureTopics(
    kinds.flatMap((k) => [
      { topic: watchTopic(k), partitions: ctx.flags.number('partitions'), configs: history },
      { topic: stateTopic(k), partitions: ctx.flags.number('partitions'), configs: STATE_TOPIC_CONFIGS },
    ]),
  );
}

/** KindShared is what a kind's pipeline is given: the shared metrics, pacer and exit on fencing, its own transform, roles and pace. */
type KindShared = {
  readonly metrics: ReturnType<typeof promWatcherMetrics>;
  readonly transform: (object: KubeObject) => KubeObject;
  readonly pacer: WatermarkPacer;
  readonly quiet: boolean;
  readonly prompt: boolean;
  readonly pace: PublicationPace;
  readonly onFatal: (err: unknown) => void;
};

async function startKind(
  ctx: ServiceContext,
  api: { kc: KubeConfig; credentials: CredentialCache },
  o: OpenedKind,
  shared: KindShared,
): Promise<KindWatcher> {
  return startKindWatcher(
    o.kind,
    {
      pageSize: ctx.flags.number('page-size'),
      minWatchTimeoutSeconds: ctx.flags.number('min-watch-timeout-seconds'),
      idleTimeoutMs: ctx.flags.number('watch-idle-timeout-seconds') * 1000,
      transform: shared.transform,
      maxBatch: 500,
      highWater: 5000,
      ...shared.pace,
    },
    {
      api: await kubeListWatcher(api.kc, api.credentials, o.kind),
      publish: o.topic.publish,
      state: o.restored.state,
      resumeFrom: o.restored.resumeFrom,
      ...shared,
      log: o.log,
      now: clock,
      fenced: publisherFenced,
    },
  );
}
