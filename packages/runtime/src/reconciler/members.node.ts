import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { AvroCodec } from '../codec/codec.avro.ts';
import { watchEventView } from '../codec/project-schema.ts';
import { Serde } from '../codec/serde.ts';
import { RedisExpectations } from '../expectations/expectations.redis.ts';
import type { ServiceContext } from '../service/main.node.ts';
import { loadSigning } from '../signing/signing-keys.fs.ts';
import type { Signing } from '../signing/signing.ts';
import { PromWorkqueueMetricsProvider } from '../workqueue/metrics.prom.ts';
import { defaultControllerRateLimiter } from '../workqueue/rate-limiter.ts';
import { Workqueue } from '../workqueue/workqueue.ts';
import type { AvroRecord } from '@kcm-bus/schemas/avro/avro-schema.ts';
import { kindOfTopic } from '@kcm-bus/schemas/kinds.ts';
import { loadMutationSchemas, MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { loadWatchSchema } from '@kcm-bus/schemas/watch-schemas.fs.ts';
import { ControllerGroup } from '../consumer/controller-group.ts';
import { Controller } from '../controller/controller.ts';
import type { Declared } from '../controller/catalog-declaration.ts';
import type { ControllerDeclaration, Input, Inputs } from '../controller/declaration.ts';
import { controllerHooks, Informers } from '../controller/informers.ts';
import { ControllerMetrics } from '../controller/metrics.prom.ts';
import type { InputCounters } from '../consumer/input-counters.prom.ts';

/** Shared are a service's series every member counts in. */
export type Shared = {
  readonly metrics: ControllerMetrics;
  readonly queues: PromWorkqueueMetricsProvider;
  readonly deadLetters: (topic: string) => void;
  readonly inputs: InputCounters;
};

/**
 * serviceGroups gives each controller its consumer group: one (`--consumer-group`) for every controller of the
 * service that shares its partitions, and one of its own (`<group>.<workqueue>`) for each singleton.
 */
export function serviceGroups(
  ctx: ServiceContext,
  ds: readonly Declared[],
  shared: Shared,
): (d: Declared) => ControllerGroup {
  const prefix = ctx.flags.string('consumer-group');
  const results = {
    serde: new Serde(
      ctx.schemaRegistry,
      MUTATION_TOPICS.results,
      loadMutationSchemas().result,
      (s) => new AvroCodec(s),
    ),
    signing: signing(ctx, ds[0]!.name),
  };
  const group = (groupId: string, singleton: boolean, fetchLingerMs = 0): ControllerGroup =>
    new ControllerGroup({
      bus: ctx.bus,
      groupId,
      singleton,
      fetchLingerMs,
      resultsTopic: MUTATION_TOPICS.results,
      results,
      mutations: { topic: ctx.flags.string('mutations-topic'), serde: mutationSerde(ctx) },
      onDeadLetter: shared.deadLetters,
      onDivergence: shared.inputs.divergences,
      onRestore: shared.inputs.restores,
      log: ctx.log.child({ group: groupId }),
      fatal: ctx.fatal,
    });
  const sharing = group(prefix, false);
  const own = new Map(
    ds.filter((d) => d.singleton).map((d) => [d, group(`${prefix}.${d.workqueue}`, true, d.fetchLingerMs)]),
  );
  return (d) => own.get(d) ?? sharing;
}

/** PreparedMember is one controller attached to its group, ready to run once the groups started. */
export type PreparedMember = { readonly run: () => RunningMember; readonly disconnect: () => void };
export type RunningMember = { readonly working: () => boolean; readonly stop: () => Promise<void> };

/** prepareMember builds a controller's stores, expectations, queue and Controller, and attaches it to its group. */
export function prepareMember<L extends Inputs>(
  ctx: ServiceContext,
  d: ControllerDeclaration<L>,
  group: ControllerGroup,
  shared: Shared,
): PreparedMember {
  const informers = new Informers<L>(d.inputs);
  const redis = d.expectations
    ? new Redis(ctx.flags.string('redis-url'), { maxRetriesPerRequest: 3, commandTimeout: REDIS_COMMAND_TIMEOUT_MS })
    : undefined;
  const expectations: RedisExpectations | undefined =
    redis &&
    new RedisExpectations(redis, {
      controller: d.name,
      ttlMs: ctx.flags.number('expectations-ttl-seconds') * 1000,
      prefix: ctx.flags.string('expectations-prefix'),
      partitionOf: (key): number => group.partitionOf(key),
    });
  const queue = new Workqueue<string>({
    name: d.workqueue,
    rateLimiter: defaultControllerRateLimiter(undefined, d.retryBackoff),
    metricsProvider: shared.queues,
  });
  const partSigning = signing(ctx, d.name);
  const controller = memberController(
    ctx,
    d,
    { informers, group, expectations, queue, signing: partSigning },
    shared.metrics,
  );
  group.attach({
    name: d.name,
    partitioned: informers.topics('partitioned'),
    global: informers.topics('global'),
    serdes: serdes(ctx, Object.values(d.inputs)),
    controller,
    signing: partSigning,
    dropWhere: (scope, pred) => informers.dropWhere(scope, pred),
    ...(expectations && {
      takeFencingTokens: (partitions: readonly number[]) => expectations.takeFencingTokens(partitions),
    }),
  });
  return { run: () => runMember(ctx, d, queue, controller), disconnect: () => redis?.disconnect() };
}

type MemberParts<L extends Inputs> = {
  readonly informers: Informers<L>;
  readonly group: ControllerGroup;
  readonly queue: Workqueue<string>;
  readonly signing: Signing;
};

/** memberController builds the Controller of one member: the spec on its informers, counted, on the member's ports. */
function memberController<L extends Inputs>(
  ctx: ServiceContext,
  d: ControllerDeclaration<L>,
  {
    informers,
    group,
    expectations,
    queue,
    signing: s,
  }: MemberParts<L> & { readonly expectations: RedisExpectations | undefined },
  metrics: ControllerMetrics,
): Controller {
  const watermarks = { watermark: (input: string, key?: string) => group.watermark(informers.topicOf(input), key) };
  const spec = d.spec(informers.listers(), {
    flags: ctx.flags,
    watermarks,
    log: ctx.log.child({ controller: d.name }),
    registry: ctx.registry,
  });
  const hooks = metrics.counted(d.name, controllerHooks(d.name, informers, spec), {
    cached: () => informers.sizes(),
    partitionsSynced: () => group.ownedPartitions().map((p) => p.synced),
    inputWatermarks: () =>
      Object.fromEntries(
        [...informers.topics('partitioned'), ...informers.topics('global')].map((t) => [t, group.watermark(t)]),
      ),
  });
  const partitioned = informers.topics('partitioned');
  return new Controller(hooks, {
    expectations,
    publish: (mutations) => group.publish(mutations, s),
    partitionOf: (key) => group.partitionOf(key),
    watchPartitionOf: (key) => group.watchPartitionOf(key),
    partitionOwned: (n) => group.partitionOwned(n),
    partitionSynced: (n) => group.partitionSynced(n),
    partitionWatermark: (n) => group.partitionWatermark(n, partitioned),
    queue,
    log: ctx.log.child({ controller: d.name }),
    now: () => new Date(),
  });
}

/** runMember starts a controller's workers and its tick, and says how to stop them. */
function runMember(
  ctx: ServiceContext,
  d: Pick<Declared, 'workers' | 'tick'>,
  queue: Workqueue<string>,
  controller: Controller,
): RunningMember {
  let working = true;
  const workers = controller.run(ctx.flags.number(d.workers.name)).finally(() => (working = false));
  const ticking = new AbortController();
  const ticker = d.tick && ticks(controller, d.tick.keys, ctx.flags.duration(d.tick.flag), ticking.signal);
  return {
    working: () => working,
    stop: async () => {
      ticking.abort();
      controller.releaseTicks();
      await ticker;
      await queue.shutDownWithDrain();
      await workers;
    },
  };
}

/**
 * ticks runs a controller's tick as wait.Until does: the keys are enqueued, and the next period starts once a
 * worker took them up (a sliding period), so a pass never comes sooner than a period after the previous one.
 */
async function ticks(
  controller: Controller,
  keys: readonly string[],
  periodMs: number,
  stopped: AbortSignal,
): Promise<void> {
  while (!stopped.aborted) {
    await controller.tick(keys, new Date());
    await sleep(periodMs, undefined, { signal: stopped }).catch(() => undefined);
  }
}

/** REDIS_COMMAND_TIMEOUT_MS bounds an expectations call: a Redis that does not answer is a transient fault, not a hang. */
const REDIS_COMMAND_TIMEOUT_MS = 5000;

/** SERDES are the services' reader serdes by topic and view: controllers that read the same fields of a topic share one, so a record is decoded once for them. */
const SERDES = new Map<string, Serde>();

/** serdes decodes each input topic, through a view of the fields its input reads when it names them. */
function serdes(ctx: ServiceContext, declared: readonly Input<unknown>[]): Map<string, Serde> {
  const codec = (s: object): AvroCodec => new AvroCodec(s);
  return new Map(
    declared.map(({ topic, fields }) => {
      const id = `${topic} ${fields?.join(',') ?? '*'}`;
      if (!SERDES.has(id)) {
        const schema = loadWatchSchema(kindOfTopic(topic)) as AvroRecord;
        SERDES.set(id, new Serde(ctx.schemaRegistry, topic, schema, codec, fields && watchEventView(schema, fields)));
      }
      return [topic, SERDES.get(id)!] as const;
    }),
  );
}

/** signing loads the controller's keys from --signing-dir; without them it warns that the bus is open. */
function signing(ctx: ServiceContext, name: string): Signing {
  const s = loadSigning(ctx.flags.string('signing-dir'), name);
  if (!s.enabled) ctx.log.warn('no --signing-dir: mutations go unsigned and results are not verified');
  return s;
}

function mutationSerde(ctx: ServiceContext): Serde {
  return new Serde(
    ctx.schemaRegistry,
    ctx.flags.string('mutations-topic'),
    loadMutationSchemas().mutation,
    (s) => new AvroCodec(s),
  );
}
