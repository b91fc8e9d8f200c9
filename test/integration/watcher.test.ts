import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { busFlags, kafkaFlags, rawKube, testStack, uniqueName } from '../support/stack.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { metricValue, startService, stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { compactEtcd } from '@kcm-bus/harness/etcd.ts';
import { restartApiserver, restartTestPart } from '../support/restart.ts';
import { startFaultProxy, type FaultProxy } from '../support/proxy.ts';
import { proxiedKubeconfig } from '../support/kubeconfig.ts';
import { readFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { isDeepStrictEqual } from 'node:util';
import { normalize, readTopic, recordsOf } from '@kcm-bus/harness/topic.ts';
import { inertObjects } from '../support/objects.ts';

const run = promisify(execFile);
const stack = testStack();
const kube = rawKube();
const watcherArgs = [
  '--kubeconfig',
  stack.kubeconfigs.watcher,
  ...busFlags(stack),
  '--watermark-interval-ms',
  '500',
  '--watermark-idle-interval-ms',
  '500',
  '--partitions',
  '3',
];

/** runTail runs `kcm-bus tail` against the test stack and returns its output lines. */
async function runTail(args: readonly string[]): Promise<string[]> {
  const { stdout } = await run(
    process.execPath,
    [resolve(import.meta.dirname, '../../packages/stack/bin/kcm-bus.ts'), 'tail', ...args, ...kafkaFlags(stack)],
    { timeout: 60_000 },
  );
  return stdout.split('\n').filter(Boolean);
}

/** relabel updates an object with a read-modify-write, retried on conflict (the node lifecycle controller also writes nodes). */
async function relabel(path: string): Promise<Record<string, unknown>> {
  return waitFor(`relabel ${path}`, async () => {
    const current = await kube('GET', path);
    return kube('PUT', path, {
      ...current,
      metadata: { ...(current['metadata'] as object), labels: { test: 'watcher', step: 'updated' } },
    });
  });
}

describe('the watcher: every watched kind as a durable, typed, replayable topic', () => {
  const ns = uniqueName('wt');
  let watcher: ServiceProcess;

  before(async () => {
    await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    watcher = await startService('watcher', watcherArgs);
  });
  after(stopAllServices);

  it("publishes create, update and delete of every kind in order per key, decoding to the API's objects", async () => {
    for (const o of inertObjects(ns, uniqueName('crud'))) {
      const created = await kube('POST', o.collection, o.body);
      const name = (o.body['metadata'] as { name: string }).name;
      const updated = await relabel(`${o.collection}/${name}`);
      await kube('DELETE', `${o.collection}/${name}?gracePeriodSeconds=0&propagationPolicy=Background`);
      const records = await waitFor(`${o.kind} ${o.key}: applied and deleted in the history`, async () => {
        const mine = recordsOf(await readTopic(stack, `kcm.watch.${o.plural}`), o.key);
        return mine.at(-1)?.value?.type === 'Deleted' ? mine : undefined;
      });
      const types = records.map((r) => r.value?.type ?? 'tombstone');
      assert.ok(
        types.slice(0, -1).every((t) => t === 'Applied'),
        `${o.kind}: ${types.join(', ')}`,
      );
      await waitFor(
        `${o.kind} ${o.key}: the state's tombstone (a checkpoint)`,
        async () => recordsOf(await readTopic(stack, `kcm.state.${o.plural}`), o.key).at(-1)?.value === null,
      );
      assert.deepEqual(records[0]?.value?.object, normalize(created), `${o.kind}: the created object`);
      assert.ok(
        records.some((r) => isDeepStrictEqual(r.value?.object, normalize(updated))),
        `${o.kind}: the updated object`,
      );
      assert.equal(
        (records.at(-2)?.value?.object?.['metadata'] as { name?: string }).name,
        name,
        'the delete carries the final object',
      );
    }
  });

  it('is readable as JSON lines with kcm-bus tail, filtered by key', async () => {
    const key = `${ns}/wt-tail`;
    await kube('POST', `/api/v1/namespaces/${ns}/endpoints`, { metadata: { name: 'wt-tail' } });
    const lines = await waitFor('the record through tail', async () => {
      const out = await runTail(['kcm.watch.endpoints', '--from-beginning', '--key', key]);
      return out.length > 0 ? out : undefined;
    });
    const first = JSON.parse(lines[0] ?? '{}') as {
      key: string;
      value: { type: string; object: { metadata: { name: string } } };
    };
    assert.equal(first.key, key);
    assert.equal(first.value.type, 'Applied');
    assert.equal(first.value.object.metadata.name, 'wt-tail');
  });

  it("strips metadata.managedFields, as upstream's informers do", async () => {
    const pods = await readTopic(stack, 'kcm.watch.pods');
    const objects = pods.flatMap((r) => (r.value?.object ? [r.value.object] : []));
    assert.ok(objects.length > 0);
    assert.ok(objects.every((o) => (o['metadata'] as Record<string, unknown>)['managedFields'] === undefined));
  });

  it("publishes a pod past Kafka's default record limit (1 MiB) whole, to both topics, and the kind goes on", async () => {
    const [big, next] = [uniqueName('big'), uniqueName('next')];
    const pod = (name: string, env: string) => ({
      metadata: { name },
      spec: { nodeName: 'nowhere', containers: [{ name: 'c', image: 'busybox', env: [{ name: 'BIG', value: env }] }] },
    });
    await kube('POST', `/api/v1/namespaces/${ns}/pods`, pod(big, 'x'.repeat(1_300_000)));
    await kube('POST', `/api/v1/namespaces/${ns}/pods`, pod(next, 'small'));
    type Env = { spec: { containers: { env: { value: string }[] }[] } };
    const envOf = (r: { value: { object?: unknown } | null } | undefined) =>
      (r?.value?.object as Env | undefined)?.spec.containers[0]?.env[0]?.value;
    for (const topic of ['kcm.watch.pods', 'kcm.state.pods']) {
      const records = await waitFor(`${topic}: the large pod and the one after it`, async () => {
        const read = await readTopic(stack, topic);
        const [a, b] = [recordsOf(read, `${ns}/${big}`)[0], recordsOf(read, `${ns}/${next}`)[0]];
        return a && b ? [a, b] : undefined;
      });
      assert.equal(envOf(records[0])?.length, 1_300_000, topic);
      assert.equal(envOf(records[1]), 'small', topic);
    }
  });

  it('writes a watermark with the resourceVersion reached to every partition', async () => {
    // A fence on a topic that never had a watermark vouches for nothing yet (resourceVersion ''); the watermarks after
    // the first list carry the resourceVersion the watcher reached.
    const latest = await waitFor('a watermark with a resourceVersion on all 3 partitions', async () => {
      const marks = (await readTopic(stack, 'kcm.watch.nodes')).filter((r) => r.key === '~watermark');
      const last = [0, 1, 2].map((p) => marks.filter((m) => m.partition === p).at(-1));
      return last.every((m) => /^\d+$/.test(m?.value?.resourceVersion ?? '')) ? last : undefined;
    });
    assert.ok(
      latest.every((r) => r?.value?.type === 'Watermark' && r.value.object === undefined),
      'a watermark carries no object',
    );
  });

  it("after kill -9 mid-churn and a restart, has every change at least once and ends at the API's state", async () => {
    const pods = `/api/v1/namespaces/${ns}/pods`;
    const seen = new Map<string, string[]>();
    const churn = async (i: number): Promise<void> => {
      const name = `churn-${i}`;
      const created = await kube('POST', pods, {
        metadata: { name },
        spec: { nodeName: 'nowhere', containers: [{ name: 'c', image: 'busybox' }] },
      });
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
        return (
          (seen.get(key) ?? []).every((rv) => published.has(rv)) &&
          mine.at(-1)?.value?.type === (deleted ? 'Deleted' : 'Applied')
        );
      });
    });
  });

  it('after 410 Gone (etcd compacted, the apiserver restarted while it was stopped) relists and publishes what it missed', async () => {
    const pods = `/api/v1/namespaces/${ns}/pods`;
    const pod = (name: string): Record<string, unknown> => ({
      metadata: { name },
      spec: { nodeName: 'nowhere', containers: [{ name: 'c', image: 'busybox' }] },
    });
    await kube('POST', pods, pod('gone-kept'));
    await kube('POST', pods, pod('gone-vanished'));
    await waitFor('both pods published', async () => {
      const records = await readTopic(stack, 'kcm.watch.pods');
      return recordsOf(records, `${ns}/gone-kept`).length > 0 && recordsOf(records, `${ns}/gone-vanished`).length > 0;
    });
    assert.equal(await watcher.stop(), 0, 'a graceful stop exits 0');
    await kube('DELETE', `${pods}/gone-vanished?gracePeriodSeconds=0`);
    await kube('POST', pods, pod('gone-new'));
    await compactEtcd(stack.etcd);
    await restartApiserver();
    watcher = await startService('watcher', watcherArgs);
    await waitFor(
      'a relist after 410',
      async () => (await metricValue(watcher, 'kcm_bus_watcher_relists_total', { kind: 'Pod' })) >= 1,
    );
    await waitFor('the missed delete and create on the topic', async () => {
      const records = await readTopic(stack, 'kcm.watch.pods');
      const vanished = recordsOf(records, `${ns}/gone-vanished`);
      return (
        vanished.at(-1)?.value?.type === 'Deleted' &&
        recordsOf(records, `${ns}/gone-new`).at(-1)?.value?.type === 'Applied'
      );
    });
  });

  it('publishes no watermark while its watches are down (kube-apiserver stopped): nothing vouches for the kinds then', async () => {
    const restarts = async (): Promise<number> =>
      metricValue(watcher, 'kcm_bus_watcher_watch_restarts_total', { kind: 'Lease', reason: 'error' });
    const window = { from: 0, to: 0 };
    const before = await restarts();
    await restartTestPart('kube-apiserver', {
      whileDown: async () => {
        await waitFor('the watcher to see its lease watch drop', async () => (await restarts()) > before, {
          timeoutMs: 60_000,
        });
        window.from = Date.now();
        // Absence needs a window to be seen in: 3 s is 6 watermark intervals of this watcher (500 ms).
        await waitFor('3 s with the apiserver down', async () => Date.now() - window.from >= 3000, { intervalMs: 100 });
        window.to = Date.now();
      },
    });
    const during = (await readTopic(stack, 'kcm.watch.leases')).filter((r) => {
      const at = Date.parse(r.value?.observedAt ?? '');
      return r.value?.type === 'Watermark' && at >= window.from && at <= window.to;
    });
    assert.deepEqual(during, []);
    await waitFor(
      'watermarks again once the apiserver is back',
      async () =>
        (await readTopic(stack, 'kcm.watch.leases')).some(
          (r) => r.value?.type === 'Watermark' && Date.parse(r.value.observedAt ?? '') > window.to,
        ),
      { timeoutMs: 120_000 },
    );
  });

  it('waits out a broker outage (kill -9, then restart): not ready meanwhile, never exits, and publishes what changed', async () => {
    const readyz = new URL('/readyz', watcher.metricsUrl);
    const status = async (): Promise<number> => (await fetch(readyz)).status;
    await restartTestPart('kafka', {
      graceMs: 0,
      whileDown: async () => {
        await kube('POST', `/api/v1/namespaces/${ns}/endpoints`, { metadata: { name: 'outage' } });
        await waitFor('the watcher to report not ready', async () => (await status()) === 503, { timeoutMs: 60_000 });
      },
    });
    await waitFor(
      'the change made while the broker was away on the topic',
      async () => recordsOf(await readTopic(stack, 'kcm.watch.endpoints'), `${ns}/outage`).length > 0,
      { timeoutMs: 120_000 },
    );
    await waitFor('the watcher to be ready again', async () => (await status()) === 200, { timeoutMs: 60_000 });
    assert.equal(watcher.process.exitCode, null, 'the watcher never exited');
  });

  it('is fenced when a newer watcher of the same kind starts: the older one exits with status 1', async () => {
    await watcher.stop();
    const older = await startService('watcher', [...watcherArgs, '--kinds', 'endpoints']);
    const newer = await startService('watcher', [...watcherArgs, '--kinds', 'endpoints']);
    await kube('POST', `/api/v1/namespaces/${ns}/endpoints`, { metadata: { name: 'fence' } });
    assert.equal(await older.exited, 1);
    await waitFor(
      'the newer watcher publishes',
      async () => recordsOf(await readTopic(stack, 'kcm.watch.endpoints'), `${ns}/fence`).length > 0,
    );
    assert.equal(newer.process.exitCode, null, 'the newer watcher runs on');
    await newer.stop();
  });

  describe('faults on the way from the API', () => {
    let proxy: FaultProxy;
    let faulty: ServiceProcess;
    const service = async (name: string): Promise<void> => {
      await kube('POST', `/api/v1/namespaces/${ns}/services`, { metadata: { name }, spec: { ports: [{ port: 80 }] } });
      await waitFor(
        `service ${name} on the topic`,
        async () => recordsOf(await readTopic(stack, 'kcm.watch.services'), `${ns}/${name}`).length > 0,
      );
    };

    before(async () => {
      proxy = await startFaultProxy(Number(new URL(stack.apiserver).port));
      const kubeconfig = proxiedKubeconfig(stack.kubeconfigs.watcher, proxy.port);
      faulty = await startService('watcher', [
        ...watcherArgs,
        '--kinds',
        'services',
        '--kubeconfig',
        kubeconfig,
        '--watch-idle-timeout-seconds',
        '3',
      ]);
    });
    after(() => proxy.close());

    it('logs and retries a dropped connection', async () => {
      proxy.dropAll();
      await service('after-drop');
      await waitFor('a logged watch restart', () =>
        readFileSync(faulty.logFile, 'utf8').includes('list/watch failed; retrying'),
      );
    });

    it('logs and retries a garbage answer', async () => {
      const errors = (): Promise<number> =>
        metricValue(faulty, 'kcm_bus_watcher_watch_restarts_total', { kind: 'Service', reason: 'error' });
      const before = await errors();
      proxy.setMode('garbage');
      proxy.dropAll();
      await waitFor('failed retries against garbage', async () => (await errors()) >= before + 2);
      proxy.setMode('forward');
      await service('after-garbage');
    });

    it('cuts a watch that went silent (the watchdog) and catches up', async () => {
      proxy.setMode('stall');
      proxy.setMode('forward');
      await service('after-stall');
      assert.ok(
        (await metricValue(faulty, 'kcm_bus_watcher_watch_restarts_total', { kind: 'Service', reason: 'idle' })) >= 1,
      );
      assert.equal(faulty.process.exitCode, null, 'no crash');
    });
  });
});
