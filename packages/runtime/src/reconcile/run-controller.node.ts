import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { AvroCodec } from '../codec/codec.avro.ts';
import { watchEventView } from '../codec/project-schema.ts';
import { Serde } from '../codec/serde.ts';
import { divergenceCounter } from '../consumer/divergences.prom.ts';
import { deadLetterCounter } from '../faults/dead-letters.prom.ts';
import { EXPECTATIONS_FLAGS } from '../expectations/expectations.ts';
import { RedisExpectations } from '../expectations/expectations.redis.ts';
import { replayService } from '../replay/replay.node.ts';
import type { FlagSpec } from '../service/flags.ts';
import { serviceMain, type ServiceContext } from '../service/main.node.ts';
import { loadSigning } from '../signing/signing-keys.fs.ts';
import type { Signing } from '../signing/signing.ts';
import { PromWorkqueueMetricsProvider } from '../workqueue/metrics.prom.ts';
import { defaultControllerRateLimiter } from '../workqueue/rate-limiter.ts';
import { Workqueue } from '../workqueue/workqueue.ts';
import type { AvroRecord } from '@kcm-bus/schemas/avro/avro-schema.ts';
import { kindOfTopic } from '@kcm-bus/schemas/kinds.ts';
import { loadMutationSchemas, MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { loadWatchSchema } from '@kcm-bus/schemas/watch-schemas.fs.ts';
import { ControllerGroup } from './controller-group.ts';
import { Controller } from './controller.ts';
import { type Declared, sealed } from './catalog-declaration.ts';
import type { ControllerDeclaration, Input, Inputs } from './declaration.ts';
import { controllerHooks, Informers } from './informers.ts';
import { ControllerMetrics } from './metrics.prom.ts';

/**
 * controllerFlags are a controller service's flags: the common ones, the group's, expectations' when a controller
 * keeps them, each controller's workers, tick and own flags (a flag two controllers declare is declared once).
 */
export function controllerFlags(ds: readonly Declared[]): readonly FlagSpec[] {
  const service = ds[0]!.service;
  const flags: FlagSpec[] = [
    {
      name: 'consumer-group',
      type: 'string',
      default: `kcm-bus-${service}`,
      help:
        'Kafka consumer group of the replicas, which reads the inputs once for all ' +
        `their controllers${
          ds.some((d) => d.singleton)
            ? ` (a singleton's: <group>.<workqueue>, ${ds
                .filter((d) => d.singleton)
                .map((d) => d.workqueue)
                .join(', ')})`
            : ''
        }; another group reads the same inputs without taking partitions from this one.`,
    },
    {
      name: 'mutations-topic',
      type: 'string',
      default: MUTATION_TOPICS.mutations,
      help: "Topic the mutations go to (the writer's input); another topic keeps them from the API (a shadow run).",
    },
    ...(ds.some((d) => d.expectations)
      ? ([
          {
            name: 'redis-url',
            type: 'string',
            default: 'redis://127.0.0.1:17106',
            help: 'Redis holding the expectations (default: the local dev stack).',
          },
          {
            name: 'expectations-prefix',
            type: 'string',
            default: 'kcm-bus:exp',
            help: "Prefix of the expectations' Redis keys; every replica of a consumer group must use the same one.",
          },
          ...EXPECTATIONS_FLAGS,
        ] as const)
      : []),
    ...ds.flatMap((d) => [
      { name: d.workers.name, type: 'number', default: d.workers.default, help: d.workers.help } as const,
      ...(d.tick ? [{ name: d.tick.flag, type: 'duration', default: d.tick.default, help: d.tick.help } as const] : []),
      ...(d.flags ?? []),
    ]),
  ];
  return flags.filter((f, i) => flags.findIndex((g) => g.name === f.name) === i);
}

/** runController runs one declared controller as a service (runControllers of one). */
export async function runController<L extends Inputs>(d: ControllerDeclaration<L>): Promise<void> {
  await runControllers([sealed(d)]);
}

/**
 * runControllers runs declared controllers as one service (all of one `service`): their stores fed from their input
 * topics by one consumer group that reads each input once for all of them (a singleton, one active member at a time,
 * in a group of its own), each controller's workers over a client-go workqueue, expectations in Redis when it keeps
 * them, its tick; the service serves /metrics, /healthz (every controller's workers run) and /readyz (every assigned
 * partition and global input caught up), and stops gracefully on SIGTERM. `<service> replay …` runs them over a
 * window of history instead (replayService).
 */
export async function runControllers(ds: readonly Declared[]): Promise<void> {
  if (process.argv[2] === 'replay') {
    process.exitCode = await replayService(ds, controllerFlags(ds), process.argv.slice(3));
    return;
  }
  await serviceMain(ds[0]!.service, controllerFlags(ds), async (ctx) => {
    const shared: Shared = {
      metrics: new ControllerMetrics(ctx.registry),
      queues: new PromWorkqueueMetricsProvider(ctx.registry),
      deadLetters: deadLetterCounter(ctx.registry),
      divergences: divergenceCounter(ctx.registry),
    };
    const groupOf = serviceGroups(ctx, ds, shared);
    const members = ds.map((d) => d.open((declaration) => prepareMember(ctx, declaration, groupOf(d), shared)));
    const groups = [...new Set(ds.map(groupOf))];
    for (const g of groups) await g.start();
    const running = members.map((m) => m.run());
    const notReady = (): string | undefined => groups.map((g) => g.notReady()).find((r) => r !== undefined);
    return {
      probes: {
        healthy: () => running.every((m) => m.working()),
        ready: () => notReady() === undefined,
        notReadyReason: notReady,
      },
      stop: async () => {
        for (const m of running) await m.stop();
        for (const g of groups) await g.stop();
        for (const m of members) m.disconnect();
      },
    };
  });
}

type Shared = {
  readonly metrics: ControllerMetrics;
  readonly queues: PromWorkqueueMetricsProvider;
  readonly deadLetters: (topic: string) => void;
  readonly divergences: (topic: string) => void;
};

/**
 * serviceGroups gives each controller its consumer group: one (`--consumer-group`) for every controller of the
 * service that shares its partitions, and one of its own (`<group>.<workqueue>`) for each singleton.
 */
function serviceGroups(ctx: ServiceContext, ds: readonly Declared[], shared: Shared): (d: Declared) => ControllerGroup {
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
  const group = (groupId: string, singleton: boolean): ControllerGroup =>
    new ControllerGroup({
      bus: ctx.bus,
      groupId,
      singleton,
      resultsTopic: MUTATION_TOPICS.results,
      results,
      mutations: { topic: ctx.flags.string('mutations-topic'), serde: mutationSerde(ctx) },
      onDeadLetter: shared.deadLetters,
      onDivergence: shared.divergences,
      log: ctx.log.child({ group: groupId }),
      fatal: ctx.fatal,
    });
  const sharing = group(prefix, false);
  const own = new Map(ds.filter((d) => d.singleton).map((d) => [d, group(`${prefix}.${d.workqueue}`, true)]));
  return (d) => own.get(d) ?? sharing;
}

/** PreparedMember is one controller attached to its group, ready to run once the groups started. */
type PreparedMember = { readonly run: () => RunningMember; readonly disconnect: () => void };
type RunningMember = { readonly working: () => boolean; readonly stop: () => Promise<void> };

/** prepareMember builds a controller's stores, expectations, queue and Controller, and attaches it to its group. */
function prepareMember<L extends Inputs>(
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
    dropWhere: (pred) => informers.dropPartitioned(pred),
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
