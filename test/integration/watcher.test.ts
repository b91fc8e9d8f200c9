import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rawKube, testStack, uniqueName } from '../support/stack.ts';
import { waitFor } from '../support/wait.ts';
import { startService, stopAllServices, type ServiceProcess } from '../support/processes.ts';
import { normalize, readTopic, recordsOf } from '../support/topic.ts';
import { inertObjects } from '../support/objects.ts';

const stack = testStack();
const kube = rawKube();
const watcherArgs = ['--kubeconfig', stack.kubeconfigs.watcher, '--kafka-brokers', stack.kafkaBootstrap,
  '--schema-registry-url', stack.registry, '--watermark-interval-ms', '500', '--partitions', '3'];

describe('the watcher: every watched kind as a durable, typed, replayable topic', () => {
  const ns = uniqueName('wt');
  let watcher: ServiceProcess;

  before(async () => {
    await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    watcher = await startService('watcher', watcherArgs);
  });
  after(stopAllServices);

  it('publishes create, update and delete of every kind in order per key, decoding to the API\'s objects', async () => {
    for (const o of inertObjects(ns, 'crud')) {
      const created = await kube('POST', o.collection, o.body);
      const name = (o.body['metadata'] as { name: string }).name;
      const updated = await kube('PUT', `${o.collection}/${name}`, { ...created, metadata: { ...created['metadata'] as object, labels: { test: 'watcher', step: 'updated' } } });
      await kube('DELETE', `${o.collection}/${name}?gracePeriodSeconds=0&propagationPolicy=Background`);
      const records = await waitFor(`${o.kind} ${o.key}: Applied, Applied, Deleted and a tombstone`, async () => {
        const mine = recordsOf(await readTopic(stack, `kcm.watch.${o.plural}`), o.key);
        return mine.length >= 4 && mine.at(-1)?.value === null ? mine : undefined;
      });
      const types = records.map((r) => r.value?.type ?? 'tombstone');
      assert.deepEqual([...types.slice(0, 2), ...types.slice(-2)], ['Applied', 'Applied', 'Deleted', 'tombstone'], `${o.kind}: ${types.join(', ')}`);
      assert.ok(types.slice(2, -2).every((t) => t === 'Applied'), 'a graceful deletion may add updates before the delete');
      assert.deepEqual(records[0]?.value?.object, normalize(created), `${o.kind}: the created object`);
      assert.deepEqual(records[1]?.value?.object, normalize(updated), `${o.kind}: the updated object`);
      assert.equal((records.at(-2)?.value?.object?.['metadata'] as { name?: string }).name, name, 'the delete carries the final object');
    }
  });

  it('strips metadata.managedFields, as upstream\'s informers do', async () => {
    const pods = await readTopic(stack, 'kcm.watch.pods');
    const objects = pods.flatMap((r) => (r.value?.object ? [r.value.object] : []));
    assert.ok(objects.length > 0);
    assert.ok(objects.every((o) => (o['metadata'] as Record<string, unknown>)['managedFields'] === undefined));
  });

  it('writes a watermark with the resourceVersion reached to every partition', async () => {
    const records = await waitFor('watermarks on all 3 partitions', async () => {
      const marks = (await readTopic(stack, 'kcm.watch.nodes')).filter((r) => r.key === '~watermark');
      return new Set(marks.map((m) => m.partition)).size === 3 ? marks : undefined;
    });
    assert.ok(records.every((r) => r.value?.type === 'Watermark' && /^\d+$/.test(r.value.resourceVersion)));
  });

  it('after kill -9 mid-churn and a restart, has every change at least once and ends at the API\'s state', async () => {
    const pods = `/api/v1/namespaces/${ns}/pods`;
    const seen = new Map<string, string[]>();
    const churn = async (i: number): Promise<void> => {
      const name = `churn-${i}`;
      const created = await kube('POST', pods, { metadata: { name }, spec: { nodeName: 'nowhere', containers: [{ name: 'c', image: 'busybox' }] } });
      const rvs = [(created['metadata'] as { resourceVersion: string }).resourceVersion];
      if (i % 3 === 0) await kube('DELETE', `${pods}/${name}?gracePeriodSeconds=0`);
      seen.set(`${ns}/${name}`, rvs);
    };
    for (let i = 0; i < 15; i++) await churn(i);
    watcher.process.kill('SIGKILL');
    await watcher.exited;
    for (let i = 15; i < 30; i++) await churn(i);
    watcher = await startService('watcher', watcherArgs);
    await waitFor('every pod at its final state on the topic', async () => {
      const records = await readTopic(stack, 'kcm.watch.pods');
      return [...seen.keys()].every((key, i) => {
        const mine = recordsOf(records, key);
        const published = new Set(mine.map((r) => r.value?.resourceVersion));
        const deleted = i % 3 === 0;
        return (seen.get(key) ?? []).every((rv) => published.has(rv)) && (deleted ? mine.at(-1)?.value === null : mine.at(-1)?.value?.type === 'Applied');
      });
    });
  });
});
