import { Redis } from 'ioredis';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/serde.ts';
import { CacheSync } from '@kcm-bus/runtime/consumer/cache-sync.ts';
import { EXPECTATIONS_FLAGS } from '@kcm-bus/runtime/expectations/expectations.ts';
import { RedisExpectations } from '@kcm-bus/runtime/expectations/expectations.redis.ts';
import { namespacePartitionKey, partitionFor } from '@kcm-bus/runtime/partition/murmur2.ts';
import { Controller } from '@kcm-bus/runtime/reconcile/controller.ts';
import { countedControllerSpec } from '@kcm-bus/runtime/reconcile/metrics.prom.ts';
import { startControllerGroup, type ControllerGroup } from '@kcm-bus/runtime/reconcile/controller.kafka.ts';
import { httpSchemaRegistry } from '@kcm-bus/runtime/registry/registry.http.ts';
import { serviceMain } from '@kcm-bus/runtime/service/main.node.ts';
import { byControllerUID, byNamespace } from '@kcm-bus/runtime/store/index-funcs.ts';
import { Store } from '@kcm-bus/runtime/store/store.ts';
import { PromWorkqueueMetricsProvider } from '@kcm-bus/runtime/workqueue/metrics.prom.ts';
import { defaultControllerRateLimiter } from '@kcm-bus/runtime/workqueue/rate-limiter.ts';
import { Workqueue } from '@kcm-bus/runtime/workqueue/workqueue.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { loadMutationSchemas, MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { loadWatchSchema } from '@kcm-bus/schemas/watch-schemas.fs.ts';
import { PODS_TOPIC, RCS_TOPIC, rcControllerSpec, type RcStores } from './controller-spec.ts';
import { CONTROLLER_NAME, type Pod, type ReplicationController } from './core-v1.ts';
import { DEFAULT_RC_CONFIG } from './reconcile-rc.ts';
import { POD_INDEX_NAMESPACE, POD_INDEX_OWNER_UID } from './rc-lookup.ts';

await serviceMain('reconciler-rc', [
  { name: 'concurrent-rc-syncs', type: 'number', default: 5, help: 'RCs synced at once (kube-controller-manager\'s flag).' },
  { name: 'redis-url', type: 'string', default: 'redis://127.0.0.1:17106', help: 'Redis holding the expectations (default: the local dev stack).' },
  { name: 'consumer-group', type: 'string', default: 'kcm-bus-reconciler-rc', help: 'Kafka consumer group of the replicas; another group replays the same inputs without taking partitions from this one.' },
  { name: 'mutations-topic', type: 'string', default: MUTATION_TOPICS.mutations, help: 'Topic the mutations go to (the writer\'s input); another topic keeps them from the API (a shadow run).' },
  { name: 'expectations-prefix', type: 'string', default: 'kcm-bus:exp', help: 'Prefix of the expectations\' Redis keys; every replica of a consumer group must use the same one.' },
  ...EXPECTATIONS_FLAGS,
], async (ctx) => {
  const registry = httpSchemaRegistry(ctx.flags.string('schema-registry-url'));
  const codec = (s: object): AvroCodec => new AvroCodec(s);
  const schemas = loadMutationSchemas();
  const stores: RcStores = { pods: new Store<Pod>({ [POD_INDEX_NAMESPACE]: byNamespace, [POD_INDEX_OWNER_UID]: byControllerUID }), rcs: new Store<ReplicationController>({ namespace: byNamespace }) };
  const partitions = await partitionCount(ctx.kafka, PODS_TOPIC);
  const partitionOf = (key: string): number => partitionFor(namespacePartitionKey(key), partitions);
  const cacheSync = new CacheSync();
  const queue = new Workqueue<string>({ name: 'replicationmanager', rateLimiter: defaultControllerRateLimiter(), metricsProvider: new PromWorkqueueMetricsProvider(ctx.registry) });
  const redis = new Redis(ctx.flags.string('redis-url'), { maxRetriesPerRequest: 3 });
  let group: ControllerGroup | undefined;
  let owned: ReadonlySet<number> = new Set();
  const spec = countedControllerSpec(ctx.registry, CONTROLLER_NAME, rcControllerSpec(stores, DEFAULT_RC_CONFIG), {
    cached: () => ({ pods: stores.pods.size, replicationcontrollers: stores.rcs.size }),
    partitionsSynced: () => [...owned].map((n) => cacheSync.partitionSynced(n)),
  });
  const mutationsTopic = ctx.flags.string('mutations-topic');
  const controller = new Controller(spec, {
    expectations: new RedisExpectations(redis, { controller: 'replicationmanager', ttlMs: ctx.flags.number('expectations-ttl-seconds') * 1000, prefix: ctx.flags.string('expectations-prefix') }),
    publish: async (mutations) => group?.publish(mutations), partitionOf, partitionSynced: (n) => cacheSync.partitionSynced(n),
    queue, log: ctx.log.child({ controller: CONTROLLER_NAME }), now: () => new Date(),
  });
  group = await startControllerGroup({
    kafka: ctx.kafka, groupId: ctx.flags.string('consumer-group'), log: ctx.log, fatal: ctx.fatal, controller, cacheSync, mutationsTopic,
    inputs: new Map([PODS_TOPIC, RCS_TOPIC].map((t) => [t, new Serde(registry, t, loadWatchSchema(watchedKind(t.replace('kcm.watch.', ''))), codec)])),
    results: { topic: MUTATION_TOPICS.results, serde: new Serde(registry, MUTATION_TOPICS.results, schemas.result, codec) },
    mutationSerde: new Serde(registry, mutationsTopic, schemas.mutation, codec),
    onAssigned: (numbers) => {
      owned = numbers;
      const lost = (key: string): boolean => !numbers.has(partitionOf(key));
      stores.pods.dropWhere(lost);
      stores.rcs.dropWhere(lost);
      controller.forget(lost);
    },
  });
  const workers = controller.run(ctx.flags.number('concurrent-rc-syncs'));
  return {
    probes: { healthy: () => true, ready: () => group?.joined() ?? false },
    stop: async () => {
      await queue.shutDownWithDrain();
      await workers;
      await group?.stop();
      redis.disconnect();
    },
  };
});

async function partitionCount(kafka: Parameters<typeof startControllerGroup>[0]['kafka'], topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const meta = await admin.fetchTopicMetadata({ topics: [topic] });
    const n = meta.topics[0]?.partitions.length ?? 0;
    if (n === 0) throw new Error(`${topic} does not exist yet: start the watcher first`);
    return n;
  } finally {
    await admin.disconnect();
  }
}
