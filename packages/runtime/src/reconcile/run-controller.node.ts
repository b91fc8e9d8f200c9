import { Redis } from 'ioredis';
import { AvroCodec } from '../codec/codec.avro.ts';
import { Serde } from '../codec/serde.ts';
import { deadLetterCounter } from '../faults/dead-letters.prom.ts';
import { EXPECTATIONS_FLAGS } from '../expectations/expectations.ts';
import { RedisExpectations } from '../expectations/expectations.redis.ts';
import { httpSchemaRegistry } from '../registry/registry.http.ts';
import type { FlagSpec } from '../service/flags.ts';
import { serviceMain, type ServiceContext } from '../service/main.node.ts';
import { loadSigning } from '../signing/signing-keys.fs.ts';
import type { Signing } from '../signing/signing.ts';
import { PromWorkqueueMetricsProvider } from '../workqueue/metrics.prom.ts';
import { defaultControllerRateLimiter } from '../workqueue/rate-limiter.ts';
import { Workqueue } from '../workqueue/workqueue.ts';
import { kindOfTopic } from '@kcm-bus/schemas/kinds.ts';
import { loadMutationSchemas, MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { loadWatchSchema } from '@kcm-bus/schemas/watch-schemas.fs.ts';
import { ControllerGroup } from './controller-group.ts';
import { Controller } from './controller.ts';
import type { ControllerDeclaration, Inputs } from './declaration.ts';
import { controllerHooks, Informers } from './informers.ts';
import { countedControllerHooks } from './metrics.prom.ts';

/** controllerFlags are a controller service's flags: the common ones, the group's, expectations', its tick's and its own. */
export function controllerFlags<L extends Inputs>(d: ControllerDeclaration<L>): readonly FlagSpec[] {
  const w = d.workers;
  return [
    { name: w.name, type: 'number', default: w.default, help: w.help },
    { name: 'consumer-group', type: 'string', default: `kcm-bus-${d.service}`, help: 'Kafka consumer group of the replicas; another group replays the same inputs without taking partitions from this one.' },
    { name: 'mutations-topic', type: 'string', default: MUTATION_TOPICS.mutations, help: 'Topic the mutations go to (the writer\'s input); another topic keeps them from the API (a shadow run).' },
    ...(d.expectations ? [
      { name: 'redis-url', type: 'string', default: 'redis://127.0.0.1:17106', help: 'Redis holding the expectations (default: the local dev stack).' },
      { name: 'expectations-prefix', type: 'string', default: 'kcm-bus:exp', help: 'Prefix of the expectations\' Redis keys; every replica of a consumer group must use the same one.' },
      ...EXPECTATIONS_FLAGS,
    ] as const : []),
    ...(d.tick ? [{ name: d.tick.flag, type: 'number', default: d.tick.defaultSeconds, help: d.tick.help } as const] : []),
    ...(d.flags ?? []),
  ];
}

/**
 * runController runs a declared controller as a service: its stores fed from its input topics, its workers over a
 * client-go workqueue, expectations in Redis when it keeps them, its tick, /metrics, /healthz (the workers run) and
 * /readyz (every assigned partition and global input caught up), and a graceful stop on SIGTERM.
 */
export async function runController<L extends Inputs>(d: ControllerDeclaration<L>): Promise<void> {
  await serviceMain(d.service, controllerFlags(d), async (ctx) => {
    const informers = new Informers<L>(d.inputs);
    const group = new ControllerGroup({
      bus: ctx.bus, groupId: ctx.flags.string('consumer-group'), singleton: d.singleton ?? false,
      partitioned: informers.topics('partitioned'), global: informers.topics('global'),
      serdes: serdes(ctx, [...informers.topics('partitioned'), ...informers.topics('global')]), resultsTopic: MUTATION_TOPICS.results,
      mutations: { topic: ctx.flags.string('mutations-topic'), serde: mutationSerde(ctx) }, signing: signing(ctx, d.name),
      dropWhere: (pred) => informers.dropPartitioned(pred), onDeadLetter: deadLetterCounter(ctx.registry), log: ctx.log, fatal: ctx.fatal,
    });
    const hooks = countedControllerHooks(ctx.registry, d.name, controllerHooks(d.name, informers, d.spec(informers.listers(), ctx.flags)), {
      cached: () => informers.sizes(), partitionsSynced: () => group.ownedPartitions().map((p) => p.synced),
    });
    const redis = d.expectations ? new Redis(ctx.flags.string('redis-url'), { maxRetriesPerRequest: 3, commandTimeout: REDIS_COMMAND_TIMEOUT_MS }) : undefined;
    const queue = new Workqueue<string>({ name: d.workqueue, rateLimiter: defaultControllerRateLimiter(), metricsProvider: new PromWorkqueueMetricsProvider(ctx.registry) });
    const controller = new Controller(hooks, {
      expectations: redis && new RedisExpectations(redis, { controller: d.name, ttlMs: ctx.flags.number('expectations-ttl-seconds') * 1000, prefix: ctx.flags.string('expectations-prefix') }),
      publish: (mutations) => group.publish(mutations), partitionOf: (key) => group.partitionOf(key),
      partitionOwned: (n) => group.partitionOwned(n), partitionSynced: (n) => group.partitionSynced(n),
      queue, log: ctx.log.child({ controller: d.name }), now: () => new Date(),
    });
    await group.start(controller);
    let working = true;
    const workers = controller.run(ctx.flags.number(d.workers.name)).finally(() => (working = false));
    const tick = d.tick;
    const ticker = tick && setInterval(() => controller.tick(tick.keys, new Date()), ctx.flags.number(tick.flag) * 1000);
    return {
      probes: { healthy: () => working, ready: () => group.notReady() === undefined, notReadyReason: () => group.notReady() },
      stop: async () => {
        clearInterval(ticker);
        await queue.shutDownWithDrain();
        await workers;
        await group.stop();
        redis?.disconnect();
      },
    };
  });
}

/** REDIS_COMMAND_TIMEOUT_MS bounds an expectations call: a Redis that does not answer is a transient fault, not a hang. */
const REDIS_COMMAND_TIMEOUT_MS = 5000;

function serdes(ctx: ServiceContext, topics: readonly string[]): Map<string, Serde> {
  const registry = httpSchemaRegistry(ctx.flags.string('schema-registry-url'));
  const codec = (s: object): AvroCodec => new AvroCodec(s);
  const inputs = topics.map((t) => [t, new Serde(registry, t, loadWatchSchema(kindOfTopic(t)), codec)] as const);
  return new Map([...inputs, [MUTATION_TOPICS.results, new Serde(registry, MUTATION_TOPICS.results, loadMutationSchemas().result, codec)]]);
}

/** signing loads the controller's keys from --signing-dir; without them it warns that the bus is open. */
function signing(ctx: ServiceContext, name: string): Signing {
  const s = loadSigning(ctx.flags.string('signing-dir'), name);
  if (!s.enabled) ctx.log.warn('no --signing-dir: mutations go unsigned and results are not verified');
  return s;
}

function mutationSerde(ctx: ServiceContext): Serde {
  const registry = httpSchemaRegistry(ctx.flags.string('schema-registry-url'));
  return new Serde(registry, ctx.flags.string('mutations-topic'), loadMutationSchemas().mutation, (s) => new AvroCodec(s));
}
