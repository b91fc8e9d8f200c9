import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rawKube, serviceBusFlags, testStack, testWriterFlags, uniqueName } from '../support/stack.ts';
import { FakeKubelet } from '@kcm-bus/harness/kubelet.ts';
import { metricValue, startService, stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const stack = testStack();
const kube = rawKube();

type Taint = { readonly key: string; readonly effect: string };
type Condition = { readonly type: string; readonly status: string };
type NodeView = {
  readonly spec?: { readonly taints?: readonly Taint[] };
  readonly status?: { readonly conditions?: readonly Condition[] };
};

/**
 * The test's timing: a 10 s grace period and a 1 s monitor period keep a node's death under a minute. The staleness
 * bound stays at its 20 s default, twice the grace period, so that what keeps a stall from marking nodes before it is
 * stale shows: silence counted only up to what was read. A zone of more than 3 nodes counts as large, and an unhealthy
 * one is tainted at 0.2 nodes/s (one every 5 s), so the secondary rate shows in seconds; the three-node zone stays
 * small (unhealthy: not tainted at all). The watcher marks every second even when idle, so a 14 s stall stays fresh.
 */
const NODE_FLAGS = [
  '--node-monitor-period',
  '1s',
  '--node-monitor-grace-period',
  '10s',
  '--node-startup-grace-period',
  '10s',
  '--max-input-staleness',
  '20s',
  '--large-cluster-size-threshold',
  '3',
  '--secondary-node-eviction-rate',
  '0.2',
];

describe('reconciler-node end to end: fake kubelets → watcher → Kafka → reconciler-node → Kafka → writer → apiserver', () => {
  const ns = uniqueName('nodes');
  const zone = uniqueName('zone');
  const kubelets = [0, 1, 2].map((i) => new FakeKubelet(kube, uniqueName(`fk${i}`), zone));
  const bigZone = uniqueName('zone');
  const bigKubelets = [0, 1, 2, 3].map((i) => new FakeKubelet(kube, uniqueName(`fz${i}`), bigZone));
  let watcher: ServiceProcess;
  let reconciler: ServiceProcess;
  const node = async (name: string): Promise<NodeView> => (await kube('GET', `/api/v1/nodes/${name}`)) as NodeView;
  const ready = (n: NodeView): string | undefined => n.status?.conditions?.find((c) => c.type === 'Ready')?.status;
  const taints = (n: NodeView): string[] => (n.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort();
  const podPath = (name: string): string => `/api/v1/namespaces/${ns}/pods/${name}`;
  const pod = (name: string, nodeName: string, tolerations: readonly object[] = []) =>
    kube('POST', `/api/v1/namespaces/${ns}/pods`, {
      metadata: { name },
      spec: { nodeName, tolerations, containers: [{ name: 'c', image: 'nginx' }] },
    });

  before(async () => {
    await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    for (const k of [...kubelets, ...bigKubelets]) await k.register();
    watcher = await startService('watcher', [
      ...serviceBusFlags(stack, 'watcher'),
      '--kubeconfig',
      stack.kubeconfigs.watcher,
      '--partitions',
      '3',
      '--watermark-idle-interval-ms',
      '1000',
    ]);
    await startService('writer', testWriterFlags(serviceBusFlags(stack, 'writer')));
    reconciler = await startService('reconciler-node', [...serviceBusFlags(stack, 'reconciler-node'), ...NODE_FLAGS]);
  });
  const excluded: string[] = [];
  after(async () => {
    await stopAllServices();
    for (const k of [...kubelets, ...bigKubelets]) await k.remove();
    for (const name of excluded) await relabel(name, undefined).catch(() => undefined);
  });

  it('takes the not-ready NoSchedule taint off nodes that report Ready, and adds the beta os/arch labels', async () => {
    for (const k of kubelets) {
      await waitFor(
        `${k.name} without the not-ready taint`,
        async () => !taints(await node(k.name)).some((t) => t.startsWith('node.kubernetes.io/not-ready')),
      );
      const labels = (await kube('GET', `/api/v1/nodes/${k.name}`))['metadata'] as { labels: Record<string, string> };
      assert.equal(labels.labels['beta.kubernetes.io/os'], 'linux');
    }
  });

  /** bad names a live kubelet's node that is not Ready or is tainted unreachable. */
  const bad = async (): Promise<string | undefined> => {
    for (const k of [...kubelets, ...bigKubelets]) {
      const n = await node(k.name);
      if (ready(n) !== 'True' || taints(n).some((t) => t.startsWith('node.kubernetes.io/unreachable')))
        return `${k.name}: Ready ${ready(n)}, taints ${taints(n).join(',')}`;
    }
    return undefined;
  };
  const stale = async (): Promise<boolean> =>
    (await metricValue(reconciler, 'kcm_bus_node_lifecycle_inputs_stale', {})) === 1;
  /** judging: a monitor pass found its inputs fresh and judged the nodes (before its inputs synced, no pass runs and the gauge says 0). */
  const judging = async (): Promise<boolean> =>
    !(await stale()) &&
    (await metricValue(reconciler, 'node_collector_update_all_nodes_health_duration_seconds_count', {})) > 0;

  it('does not take a stalled pipeline for dead nodes: the watcher stopped for 2.5 grace periods marks nothing Unknown and taints nothing', async () => {
    await waitFor('the reconciler judging on fresh inputs', judging, { timeoutMs: 60_000 });
    watcher.process.kill('SIGSTOP');
    try {
      await waitFor('the reconciler to see its inputs stale', stale, { timeoutMs: 40_000 });
      await observeNothing(bad, 25_000);
    } finally {
      watcher.process.kill('SIGCONT');
    }
    await waitFor('the reconciler to see its inputs fresh again', async () => !(await stale()), { timeoutMs: 60_000 });
    await observeNothing(bad, 15_000);
  });

  it('counts only the silence it has read: the watcher stopped 14 s, past the grace period and short of stale, marks nothing', async () => {
    await waitFor('the reconciler judging on fresh inputs', judging, { timeoutMs: 60_000 });
    watcher.process.kill('SIGSTOP');
    try {
      await observeNothing(
        async () =>
          (await stale()) ? 'the inputs went stale: the stall must stay under --max-input-staleness' : await bad(),
        14_000,
      );
    } finally {
      watcher.process.kill('SIGCONT');
    }
    await observeNothing(bad, 10_000);
  });

  it('judges a node whose kubelet died: Unknown after the grace period, unreachable taints, its pods NotReady, a pod tolerating 5 s evicted; back, the taints go', async () => {
    const [, , dying] = kubelets as [FakeKubelet, FakeKubelet, FakeKubelet];
    const unreachable5s = {
      key: 'node.kubernetes.io/unreachable',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 5,
    };
    await pod('short', dying.name, [unreachable5s]);
    await pod('patient', dying.name);
    for (const p of ['short', 'patient']) await dying.podReady(ns, p);
    dying.die();
    await waitFor(`${dying.name} Ready Unknown`, async () => ready(await node(dying.name)) === 'Unknown', {
      timeoutMs: 90_000,
    });
    await waitFor(
      `${dying.name} tainted unreachable`,
      async () => {
        const t = taints(await node(dying.name));
        return (
          t.includes('node.kubernetes.io/unreachable:NoExecute') &&
          t.includes('node.kubernetes.io/unreachable:NoSchedule')
        );
      },
      { timeoutMs: 60_000 },
    );
    await waitFor(
      'patient NotReady',
      async () =>
        ((await kube('GET', podPath('patient')))['status'] as { conditions?: Condition[] }).conditions?.find(
          (c) => c.type === 'Ready',
        )?.status === 'False',
    );
    await waitFor(
      'short evicted',
      async () =>
        kube('GET', podPath('short')).then(
          (p) => (p['metadata'] as { deletionTimestamp?: string }).deletionTimestamp !== undefined,
          () => true,
        ),
      { timeoutMs: 60_000 },
    );
    const patient = await kube('GET', podPath('patient'));
    assert.equal(
      (patient['metadata'] as { deletionTimestamp?: string }).deletionTimestamp,
      undefined,
      'a pod tolerating 300 s stays',
    );
    await dying.revive();
    await waitFor(
      `${dying.name} Ready and untainted`,
      async () => {
        const n = await node(dying.name);
        return ready(n) === 'True' && !taints(n).some((t) => t.startsWith('node.kubernetes.io/'));
      },
      { timeoutMs: 60_000 },
    );
  });

  it('taints an unhealthy large zone at the secondary rate: three of four nodes dead, one taint every 5 s', async () => {
    const dead = bigKubelets.slice(1);
    for (const k of dead) k.die();
    const taintedAt = new Map<string, number>();
    await waitFor(
      'the three dead nodes tainted unreachable',
      async () => {
        for (const k of dead)
          if (!taintedAt.has(k.name) && taints(await node(k.name)).includes('node.kubernetes.io/unreachable:NoExecute'))
            taintedAt.set(k.name, Date.now());
        return taintedAt.size === dead.length;
      },
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    const times = [...taintedAt.values()].sort((a, b) => a - b);
    assert.ok(times[2]! - times[0]! >= 8000, `three taints over ${times[2]! - times[0]!} ms: one every 5 s takes 10 s`);
    assert.ok(
      !taints(await node(bigKubelets[0]!.name)).some((t) => t.startsWith('node.kubernetes.io/')),
      'the live node untouched',
    );
  });

  it('taints nothing when every node of every zone is dead (all-zones-down), and takes the NoExecute taints off', async () => {
    const mine = new Set([...kubelets, ...bigKubelets].map((k) => k.name));
    const others = ((await kube('GET', '/api/v1/nodes'))['items'] as { metadata: { name: string } }[])
      .map((n) => n.metadata.name)
      .filter((n) => !mine.has(n));
    for (const name of others) {
      await relabel(name, '');
      excluded.push(name);
    }
    for (const k of [...kubelets, ...bigKubelets]) k.die();
    const noExecute = async (): Promise<string | undefined> => {
      for (const name of mine) if (taints(await node(name)).some((t) => t.endsWith(':NoExecute'))) return name;
      return undefined;
    };
    await waitFor(
      'every node of both zones Unknown',
      async () =>
        (await Promise.all([...mine].map(async (name) => ready(await node(name))))).every((r) => r === 'Unknown'),
      { timeoutMs: 120_000 },
    );
    await waitFor(
      'the NoExecute taints of the earlier deaths taken off',
      async () => (await noExecute()) === undefined,
      { timeoutMs: 60_000 },
    );
    await observeNothing(async () => {
      const tainted = await noExecute();
      return tainted === undefined ? undefined : `${tainted} tainted NoExecute`;
    }, 10_000);
  });
});

/**
 * relabel sets (value '') or removes (undefined) a node's node.kubernetes.io/exclude-disruption label, read-modify-write
 * with retries: kwok and the TTL controller write nodes too. The label keeps the other tests' kwok nodes out of the
 * zones, so the test's own nodes can be every node there is.
 */
async function relabel(name: string, value: string | undefined): Promise<void> {
  await waitFor(
    `${name} relabelled`,
    async () => {
      const current = (await kube('GET', `/api/v1/nodes/${name}`)) as { metadata: { labels?: Record<string, string> } };
      const { ['node.kubernetes.io/exclude-disruption']: _old, ...labels } = current.metadata.labels ?? {};
      await kube('PUT', `/api/v1/nodes/${name}`, {
        ...current,
        metadata: {
          ...current.metadata,
          labels: value === undefined ? labels : { ...labels, 'node.kubernetes.io/exclude-disruption': value },
        },
      });
      return true;
    },
    { timeoutMs: 30_000 },
  );
}

/** observeNothing watches for `ms` that the bad condition never shows, failing with what it saw when it does. */
async function observeNothing(bad: () => Promise<string | undefined>, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const seen = await bad();
    assert.equal(seen, undefined, `seen during the stall: ${seen}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
