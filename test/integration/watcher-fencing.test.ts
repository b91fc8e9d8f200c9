import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/index.ts';
import { namespacePartitionKey, partitionFor } from '@kcm-bus/runtime/partition/index.ts';
import { httpSchemaRegistry } from '@kcm-bus/runtime/registry/registry.http.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { EPOCH_HEADER } from '@kcm-bus/schemas/watch-record.ts';
import { loadWatchSchema } from '@kcm-bus/schemas/watch-schemas.fs.ts';
import { rawKube, schedulableKwokNode, serviceBusFlags, testStack, uniqueName } from '../support/stack.ts';
import { startService, stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { type Pod, rcClient, rcManifest } from '@kcm-bus/harness/rc.ts';
import { readRaw } from '@kcm-bus/harness/topic.ts';
import { waitFor, waitForSteady } from '@kcm-bus/harness/wait.ts';

const stack = testStack();
const kube = rawKube();
const PODS_HISTORY = 'kcm.watch.pods';
const watcherArgs = [
  ...serviceBusFlags(stack, 'watcher'),
  '--kubeconfig',
  stack.kubeconfigs.watcher,
  '--partitions',
  '3',
  '--kinds',
  'pods,replicationcontrollers',
  '--watermark-idle-interval-ms',
  '1000',
];

/** epochOf reads the epoch a watcher logged when it claimed it. */
async function epochOf(watcher: ServiceProcess): Promise<bigint> {
  return waitFor("the watcher's epoch in its log", async () => {
    const line = readFileSync(watcher.logFile, 'utf8')
      .split('\n')
      .find((l) => l.includes('epoch claimed'));
    return line === undefined ? undefined : BigInt((JSON.parse(line) as { epoch: string }).epoch);
  });
}

/**
 * zombieDelete writes what a replaced watcher could still write: a Deleted record of a live pod, under an older epoch;
 * it returns where the record landed.
 */
async function zombieDelete(ns: string, name: string, epoch: bigint): Promise<{ partition: number; offset: bigint }> {
  const serde = new Serde(
    httpSchemaRegistry(stack.registry),
    PODS_HISTORY,
    loadWatchSchema(watchedKind('pods')),
    (s) => new AvroCodec(s),
  );
  const { managedFields: _stripped, ...metadata } = (await kube('GET', `/api/v1/namespaces/${ns}/pods/${name}`))[
    'metadata'
  ] as Record<string, unknown>;
  const object = { ...(await kube('GET', `/api/v1/namespaces/${ns}/pods/${name}`)), metadata };
  const key = `${ns}/${name}`;
  const resourceVersion = metadata['resourceVersion'] as string;
  const { bytes } = await serde.encode({
    type: 'Deleted',
    key,
    resourceVersion,
    observedAt: new Date().toISOString(),
    object,
  });
  const publisher = await kafkaBus({ brokers: stack.kafkaBrokers, clientId: 'kcm-bus-test-zombie' }).publisher();
  try {
    const [at] = await publisher.send(PODS_HISTORY, [
      {
        key,
        value: bytes,
        partition: partitionFor(namespacePartitionKey(key), 3),
        headers: { [EPOCH_HEADER]: String(epoch) },
      },
    ]);
    return { partition: at!.partition, offset: BigInt(at!.lastOffset) };
  } finally {
    await publisher.close();
  }
}

/** readPast waits until every reconciler-rc group has read (committed) past an offset of the pods' history. */
async function readPast(at: { partition: number; offset: bigint }): Promise<void> {
  const bus = kafkaBus({ brokers: stack.kafkaBrokers, clientId: 'kcm-bus-test-lag' });
  await waitFor("reconciler-rc's groups past the zombie's record", async () => {
    const groups = (await bus.groupOffsets()).filter((g) => g.groupId === 'kcm-bus-reconciler-rc');
    const committed = groups.map(
      (g) => g.partitions.find((p) => p.topic === PODS_HISTORY && p.partition === at.partition)?.committed,
    );
    return groups.length > 0 && committed.every((c) => c !== undefined && BigInt(c) > at.offset);
  });
}

/**
 * Fencing without a transaction per event: a new watcher claims a larger epoch and fences every history partition
 * with it; the replaced one's checkpoint is refused (it exits), and what it writes to the history meanwhile carries its
 * older epoch, which every reader drops. Here the zombie's write is made by hand, so that it lands for sure: a Deleted
 * record of a pod an RC owns, which a reader that obeyed it would answer with a second pod.
 */
describe('two watchers of one kind: the replaced one cannot harm', () => {
  const ns = uniqueName('zombie');
  const { rcs, running, scale, pods } = rcClient(kube, ns);
  let reconciler: ServiceProcess;

  before(async () => {
    await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    await schedulableKwokNode(uniqueName('kwok-zombie'));
    await startService('writer', [
      ...serviceBusFlags(stack, 'writer'),
      '--kubeconfig',
      stack.kubeconfigs.writer,
      '--partitions',
      '3',
    ]);
    reconciler = await startService('reconciler-rc', [
      ...serviceBusFlags(stack, 'reconciler-rc'),
      '--redis-url',
      stack.redis,
    ]);
  });
  after(stopAllServices);

  it('given a newer watcher, then the older exits fenced, and a record of its epoch changes nothing, live or after a restore', async () => {
    const older = await startService('watcher', watcherArgs);
    const olderEpoch = await epochOf(older);
    const newer = await startService('watcher', watcherArgs);
    assert.ok((await epochOf(newer)) > olderEpoch, 'the newer watcher claims a larger epoch');
    assert.equal(await older.exited, 1, 'the older watcher exits once its next checkpoint is refused');
    await kube('POST', rcs, rcManifest('web', 1));
    const [pod] = await running('web', 1);
    await readPast(await zombieDelete(ns, pod!.metadata.name, olderEpoch));
    const still = await waitForSteady(
      "web after the zombie's record",
      async () => (await pods('web')).map((p) => p.metadata.name),
      () => true,
    );
    assert.deepEqual(still, [pod!.metadata.name], 'a reader that obeyed the record would have made a second pod');
    const refused = (await readRaw(stack, `${PODS_HISTORY}.dlq`)).filter(
      (r) => r.key === `${ns}/${pod!.metadata.name}`,
    );
    assert.ok(
      refused.length > 0 && refused.every((r) => /older than the partition's/.test(r.headers['kcm-bus.reason'] ?? '')),
      'the refused record is dead-lettered, with why',
    );
    await scaledKeeping('web', 2, pod!);
    await reconciler.stop();
    reconciler = await startService('reconciler-rc', [
      ...serviceBusFlags(stack, 'reconciler-rc'),
      '--redis-url',
      stack.redis,
    ]);
    await scaledKeeping('web', 3, pod!);
    const zombies = (await readRaw(stack, PODS_HISTORY)).filter(
      (r) => r.key.endsWith(`/${pod!.metadata.name}`) && BigInt(r.headers[EPOCH_HEADER] ?? '0') === olderEpoch,
    );
    assert.equal(zombies.length, 1, "the zombie's record is in the history, for audit");
  });

  /**
   * scaledKeeping scales the RC and waits for its pods to hold still at that count: a reconciler that believed the
   * zombie (the first pod gone) would have created one pod more, and the first pod is among them.
   */
  async function scaledKeeping(app: string, replicas: number, first: Pod): Promise<void> {
    await scale(app, replicas);
    const names = await waitForSteady(
      `${app} at ${replicas}`,
      async () => (await pods(app)).map((p) => p.metadata.name).sort(),
      (n) => n.length === replicas,
    );
    assert.ok(names.includes(first.metadata.name), `${names.join(', ')} lacks ${first.metadata.name}`);
  }
});
