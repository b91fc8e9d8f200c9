import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/index.ts';
import { httpSchemaRegistry } from '@kcm-bus/runtime/registry/registry.http.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { loadWatchSchema } from '@kcm-bus/schemas/watch-schemas.fs.ts';
import { namespacePartitionKey, partitionFor } from '@kcm-bus/runtime/partition/index.ts';
import { MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { busFlags, rawKube, testStack, uniqueName } from '../support/stack.ts';
import { metricValue, startService, stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { rcClient, rcManifest } from '@kcm-bus/harness/rc.ts';
import { readRaw, readTopic, recordsOf } from '@kcm-bus/harness/topic.ts';
import { waitFor, waitForSteady } from '@kcm-bus/harness/wait.ts';

const stack = testStack();
const kube = rawKube();
const bus = busFlags(stack);
const RC_STATE = 'kcm.state.replicationcontrollers';

/** appendToState writes records to a key's partition of the RC state topic, as the watcher's checkpoints do. */
async function appendToState(
  key: string,
  records: readonly { value: Buffer | null; headers?: Record<string, string> }[],
) {
  const kafka = kafkaBus({ brokers: stack.kafkaBrokers, clientId: 'kcm-bus-test-state' });
  const partition = partitionFor(namespacePartitionKey(key), await kafka.partitionCount(RC_STATE));
  const publisher = await kafka.publisher();
  try {
    await publisher.send(
      RC_STATE,
      records.map((r) => ({ key, value: r.value, partition, ...(r.headers ? { headers: r.headers } : {}) })),
    );
  } finally {
    await publisher.close();
  }
}

/**
 * appendAsCompacted writes to a key's state partition what the log cleaner can leave a member that is restoring:
 * the key's last Applied record (as the watcher wrote it), then only its tombstone. Compaction promises a reader from
 * the start each key's final record and the tombstones, not every record: a member that read an Applied before the
 * cleaner removed the Deleted after it finds the tombstone next. Written here, so that the order is certain.
 */
async function appendAsCompacted(key: string): Promise<void> {
  const applied = (await readRaw(stack, RC_STATE)).filter((r) => r.key === key && r.value !== null).at(0);
  assert.ok(applied?.value, `the watcher checkpointed ${key}`);
  await appendToState(key, [{ value: applied.value, headers: { ...applied.headers } }, { value: null }]);
}

/** writeState writes an Applied record of an object into the state topic, encoded as the watcher encodes them. */
async function writeState(key: string, object: Record<string, unknown>): Promise<void> {
  const serde = new Serde(
    httpSchemaRegistry(stack.registry),
    RC_STATE,
    loadWatchSchema(watchedKind('replicationcontrollers')),
    (schema) => new AvroCodec(schema),
  );
  const event = { type: 'Applied', key, resourceVersion: '1', observedAt: new Date().toISOString(), object };
  await appendToState(key, [{ value: (await serde.encode(event)).bytes }]);
}

const rcTemplate = (app: string): Record<string, unknown> => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

/**
 * The ghost of issue 41: an RC created and deleted while reconciler-rc was down came back when it restored, and it
 * retried a status write on it forever. A restored member must hold exactly what the API holds.
 */
describe('a restored member holds no object the API deleted while it was down', () => {
  const ns = uniqueName('ghost');
  const client = rcClient(kube, ns);
  let reconciler: ServiceProcess | undefined;

  before(async () => {
    await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']);
    await startService('writer', [...bus, '--kubeconfig', stack.kubeconfigs.writer, '--partitions', '3']);
  });
  after(stopAllServices);

  it('given an RC created and deleted with reconciler-rc down, and its state compacted mid-restore, then reconciler-rc never holds it nor writes to it', async () => {
    const gone = `${ns}/gone`;
    await client.create(rcManifest('gone', 2));
    await waitFor(
      'its Applied in the state topic',
      async () => recordsOf(await readTopic(stack, RC_STATE), gone).length > 0,
    );
    await kube('DELETE', `${client.rcs}/gone?propagationPolicy=Background`);
    await waitFor('its tombstone in the state topic', async () =>
      recordsOf(await readTopic(stack, RC_STATE), gone).some((r) => r.value === null),
    );
    await appendAsCompacted(gone);
    const kept = await client.create(rcManifest('kept', 1));
    reconciler = await startService('reconciler-rc', [...bus, '--redis-url', stack.redis]);
    // The restored keys sync as their partitions catch up; the live RC's status shows that its sync ran.
    await waitFor('the live RC synced, its pod and its status', async () => {
      const rc = await client.get('kept');
      return rc.status?.replicas === 1 && (await client.owned('kept', kept.metadata.uid)).length === 1;
    });
    type Written = { reconcileKey?: string; verb?: string; target?: { resource?: string; name?: string } };
    const mutations = (await readTopic(stack, MUTATION_TOPICS.mutations))
      .map((m) => m.value as Written | null)
      .filter((m) => m?.reconcileKey === gone)
      .map((m) => `${m?.verb} ${m?.target?.resource}/${m?.target?.name}`);
    assert.deepEqual(mutations, [], 'no mutation for the deleted RC');
    assert.deepEqual(await client.pods('gone'), [], 'no pod created for it');
    const rcs = { topic: RC_STATE };
    await waitFor('an RC watermark read, with its inventory', async () =>
      (await fetch(reconciler!.metricsUrl).then((r) => r.text())).includes(
        `kcm_bus_input_watermark_age_seconds{controller="replicationcontroller-controller",topic="${RC_STATE}"}`,
      ),
    );
    assert.equal(
      await metricValue(reconciler, 'kcm_bus_store_divergences_total', rcs),
      0,
      "it agrees with the watcher's",
    );
    assert.equal(reconciler.process.exitCode, null);
  });

  it("given a store that diverged anyway (an RC the API never had, written into the state topic), then the watcher's next inventory tells, and its first write answered 404 drops it, counted, and nothing more is written for it", async () => {
    const key = `${ns}/never`;
    await writeState(key, {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'never', namespace: ns, uid: 'never-uid', resourceVersion: '1', generation: 2 },
      spec: { replicas: 0, selector: { app: 'never' }, template: rcTemplate('never') },
      status: { replicas: 3, observedGeneration: 1 },
    });
    await reconciler?.stop();
    const restarted = await startService('reconciler-rc', [...bus, '--redis-url', stack.redis]);
    await waitFor(
      "the divergence noticed at the next watermark, against the watcher's inventory",
      async () => (await metricValue(restarted, 'kcm_bus_store_divergences_total', { topic: RC_STATE })) >= 1,
    );
    await waitFor(
      'the diverged RC dropped from the store',
      async () =>
        (await metricValue(restarted, 'kcm_bus_store_evictions_total', { kind: 'replicationcontrollers' })) >= 1,
    );
    const writes = async (): Promise<number> =>
      (await readTopic(stack, MUTATION_TOPICS.mutations)).filter(
        (m) => (m.value as { reconcileKey?: string } | null)?.reconcileKey === key,
      ).length;
    const first = await writes();
    // Unless dropped, it would write again within its backoff and a fresh read (5 s at most): 6 s without one.
    await waitForSteady('no more writes for it', writes, () => true, { intervalMs: 3000 });
    assert.equal(await writes(), first, 'it is written no more once dropped');
    assert.ok(first <= 2, `${first} status writes before it was dropped`);
  });
});
