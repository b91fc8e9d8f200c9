import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { namespacePartitionKey, partitionFor } from '@kcm-bus/runtime/partition/murmur2.ts';
import { MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { busFlags, rawKube, testStack, uniqueName } from '../support/stack.ts';
import { startService, stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { rcClient, rcManifest } from '@kcm-bus/harness/rc.ts';
import { readRaw, readTopic, recordsOf } from '@kcm-bus/harness/topic.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const stack = testStack();
const kube = rawKube();
const bus = busFlags(stack);
const RC_STATE = 'kcm.state.replicationcontrollers';

/**
 * appendAsCompacted writes to a key's state partition what the log cleaner can leave a member that is restoring:
 * the key's last Applied record (as the watcher wrote it), then only its tombstone. Compaction promises a reader from
 * the start each key's final record and the tombstones, not every record: a member that read an Applied before the
 * cleaner removed the Deleted after it finds the tombstone next. Written here, so that the order is certain.
 */
async function appendAsCompacted(key: string): Promise<void> {
  const applied = (await readRaw(stack, RC_STATE)).filter((r) => r.key === key && r.value !== null).at(0);
  assert.ok(applied?.value, `the watcher checkpointed ${key}`);
  const kafka = kafkaBus({ brokers: [stack.kafkaBootstrap], clientId: 'kcm-bus-test-compacted' });
  const partition = partitionFor(namespacePartitionKey(key), await kafka.partitionCount(RC_STATE));
  const publisher = await kafka.publisher();
  try {
    await publisher.send(RC_STATE, [
      { key, value: applied.value, partition, headers: applied.headers },
      { key, value: null, partition },
    ]);
  } finally {
    await publisher.close();
  }
}

/**
 * The ghost of issue 41: an RC created and deleted while reconciler-rc was down came back when it restored, and it
 * retried a status write on it forever. A restored member must hold exactly what the API holds.
 */
describe('a restored member holds no object the API deleted while it was down', () => {
  const ns = uniqueName('ghost');
  const client = rcClient(kube, ns);
  let reconciler: ServiceProcess;

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
    assert.equal(reconciler.process.exitCode, null);
  });
});
