import { setTimeout as sleep } from 'node:timers/promises';
import { ExponentialBackoff } from '@kcm-bus/runtime/flowcontrol/index.ts';
import type { Logger } from '@kcm-bus/runtime/service/index.ts';
import type { ValueDigest } from '@kcm-bus/runtime/signing/index.ts';
import { objectKey, type WatchedKind } from '@kcm-bus/schemas/kinds.ts';
import { withholdValues } from '@kcm-bus/schemas/withheld.ts';
import { identityOf } from '@kcm-bus/schemas/metadata-only.ts';
import { WATERMARK_KEY } from '@kcm-bus/schemas/watch-record.ts';
import type { KubeObject, PublishedRecord, StreamItem } from './events.ts';
import type { ListWatcher } from './list-watcher.ts';
import { Pump, type PumpFailures, type PumpItem, type PumpOptions } from './pump.ts';
import { REFLECTOR_BACKOFF, runReflector, type ReflectorOptions } from './reflector.ts';
import type { PublishedState } from './store.ts';
import type { WatcherMetrics } from './metrics.ts';
import type { WatermarkPacer } from './watermark-pacer.ts';

/**
 * KindWatcherOptions are the tunables of one kind's pipeline: its reflector's, its pump's, and the transform every
 * object goes through before it is queued (as an informer's SetTransform: managed fields stripped, a secret's values
 * withheld; objectTransform).
 */
export type KindWatcherOptions = ReflectorOptions &
  PumpOptions & { readonly transform: (object: KubeObject) => KubeObject };

/** KindWatcherPorts are the adapters one kind's pipeline runs on. */
export type KindWatcherPorts = {
  readonly api: ListWatcher;
  readonly publish: (records: readonly PublishedRecord[], atomic: boolean) => Promise<void>;
  readonly state: PublishedState;
  readonly resumeFrom: string | undefined;
  readonly metrics: WatcherMetrics;
  readonly log: Logger;
  readonly now: () => Date;
  /** pacer says when a watermark is due; one pacer serves every kind of the watcher. */
  readonly pacer: WatermarkPacer;
  /** quiet: the kind's changes are not told to the pacer (no controller reads it at a cut). */
  readonly quiet: boolean;
  /** prompt: the kind's creations are told to the pacer as such (a controller syncs a new object of it at a cut). */
  readonly prompt: boolean;
  readonly onFatal: (err: unknown) => void;
  /** fenced tells a failed publication that a newer watcher of the kind fenced: final. */
  readonly fenced: (err: unknown) => boolean;
};

/**
 * KindWatcher is a running pipeline: API list/watch → ordered queue → the kind's history topic (and its state, by checkpoints). alive is
 * false once its list/watch loop ended other than by stop (/healthz).
 */
export type KindWatcher = {
  readonly synced: () => boolean;
  readonly alive: () => boolean;
  /** publishing is false while a publication is failing and being retried, or in flight over 5 s (the broker away): not ready. */
  readonly publishing: () => boolean;
  readonly stop: () => Promise<void>;
};

/**
 * startKindWatcher runs one kind: the reflector turns the API's stream into items, the published state is
 * updated in that order (so a relist diffs against what the topic holds), the pump publishes them, and a
 * watermark per partition is published whenever the pacer says it is due once something was queued, but only while a watch is open:
 * a watermark says the kind is complete up to its time, which nothing vouches for while the watch is down (an
 * apiserver restarting, a 403 or a backoff, a relist). Consumers then see the input grow old, as they should (node
 * lifecycle's stale-input guard judges no node on it).
 */
export function startKindWatcher(kind: WatchedKind, opts: KindWatcherOptions, ports: KindWatcherPorts): KindWatcher {
  const stopping = new AbortController();
  const pump = new Pump(ports.publish, opts, publishFailures(ports), ports.resumeFrom);
  let synced = false;
  let streaming = false;
  const sink = async (items: readonly StreamItem[], atomic = false): Promise<void> => {
    const queued = items.map((item) => toPumpItem(item, opts.transform, ports.now()));
    const created = ports.prompt && queued.some((item) => item.type === 'Applied' && !ports.state.has(item.key));
    for (const item of queued)
      if (item.type === 'Applied' || item.type === 'Deleted') ports.state.apply(item.type, item.key, item.object);
    for (const item of items) if (item.type !== 'Progress') ports.metrics.event(kind.kind, item.type);
    if (created) ports.pacer.created(ports.now().getTime());
    else if (!ports.quiet && items.some((item) => item.type !== 'Progress')) ports.pacer.changed(ports.now().getTime());
    await pump.push(queued, atomic);
  };
  const hooks = {
    sink,
    log: ports.log,
    random: Math.random,
    relisted: () => ports.metrics.relisted(kind.kind),
    watchRestarted: (reason: string) => ports.metrics.watchRestarted(kind.kind, reason),
    synced: () => void (synced = true),
    streaming: (open: boolean) => void (streaming = open),
    sleep: sleepUnlessAborted,
  };
  let running = true;
  const loop = runReflector(ports.api, ports.state, ports.resumeFrom, opts, hooks, stopping.signal).finally(
    () => (running = false),
  );
  const reported = { rv: undefined as string | undefined, depth: -1 };
  const unpoll = ports.pacer.onPoll((nowMs) => {
    const [rv, depth] = [pump.reached, pump.depth];
    if (rv !== reported.rv || depth !== reported.depth) {
      Object.assign(reported, { rv, depth });
      ports.metrics.reached(kind.kind, rv, depth);
    }
    const latest = pump.latest;
    if (latest === undefined || !streaming || !ports.pacer.due(kind.kind, nowMs)) return;
    ports.pacer.marked(kind.kind, nowMs);
    const at = new Date(nowMs);
    void pump
      .published([watermark(latest, at, ports.state.inventories())])
      .then(() => ports.metrics.watermarked(kind.kind, kind.plural, at), ports.onFatal);
  });
  return {
    synced: () => synced,
    alive: () => running || stopping.signal.aborted,
    publishing: () => !pump.stalled,
    stop: async () => {
      unpoll();
      stopping.abort();
      await loop;
      await pump.close();
    },
  };
}

/** STALL_MS is how long a publication may be in flight before the watcher reports not ready (a healthy one takes milliseconds). */
const STALL_MS = 5000;

/**
 * publishFailures wait out a broker that is away: every failed publication but a fenced one is retried with the
 * reflector's backoff, capped at 10 s (800 ms doubling, with jitter), logged at its first failure and then every tenth, and the
 * recovery logged with the attempts it took. A fenced publisher is final: a newer watcher of the kind took over.
 */
function publishFailures(ports: KindWatcherPorts): PumpFailures {
  return {
    final: ports.fenced,
    onFatal: ports.onFatal,
    backoff: new ExponentialBackoff({ ...REFLECTOR_BACKOFF, capMs: 10_000 }),
    sleep: sleepUnlessAborted,
    now: () => ports.now().getTime(),
    stallMs: STALL_MS,
    onRetry: (err, attempt, delayMs) => {
      if (attempt % 10 === 1)
        ports.log.warn('publishing to Kafka failed: retrying the same records (not ready meanwhile)', {
          attempt,
          delayMs: Math.round(delayMs),
          err,
        });
    },
    onRecovered: (attempts) => ports.log.info('publishing to Kafka again', { failedAttempts: attempts }),
  };
}

/** sleepUnlessAborted waits ms, or less when the signal aborts (then it resolves too: the caller looks at the signal). */
function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return sleep(ms, undefined, { signal }).catch(() => undefined);
}

function toPumpItem(item: StreamItem, transform: (object: KubeObject) => KubeObject, now: Date): PumpItem {
  if (item.type === 'Progress') return item;
  const object = transform(item.object);
  return {
    type: item.type,
    key: objectKey(object.metadata ?? {}),
    resourceVersion: object.metadata?.resourceVersion ?? '',
    observedAt: now.toISOString(),
    object,
  };
}

/**
 * objectTransform is a kind's transform: metadata.managedFields dropped unless kept (upstream's informers'
 * TransformStripManagedFields), and a withheld kind's values replaced by their digests (withholdValues). A withheld
 * kind without a digest throws: its values must not reach the topic. A metadata-only kind keeps its identity alone.
 */
export function objectTransform(
  kind: WatchedKind,
  keepManagedFields: boolean,
  digest: ValueDigest | undefined,
): (object: KubeObject) => KubeObject {
  const { withheld } = kind;
  if (withheld !== undefined && digest === undefined)
    throw new Error(`${kind.plural} are watched with their values withheld: a digest key is required`);
  if (kind.metadataOnly === true) return (o) => identityOf(o, kind);
  const strip = keepManagedFields ? (o: KubeObject) => o : withoutManagedFields;
  return withheld === undefined ? strip : (o) => strip(withholdValues(o, withheld, digest!));
}

/** withoutManagedFields drops metadata.managedFields. */
function withoutManagedFields(object: KubeObject): KubeObject {
  if (object.metadata?.managedFields === undefined) return object;
  const { managedFields: _dropped, ...metadata } = object.metadata;
  return { ...object, metadata };
}

/** watermark is a watermark record with each partition's inventory as of every item queued before it. */
function watermark(resourceVersion: string, now: Date, inventory: readonly string[]): PublishedRecord {
  return {
    type: 'Watermark',
    key: WATERMARK_KEY,
    resourceVersion,
    observedAt: now.toISOString(),
    object: null,
    inventory,
  };
}
