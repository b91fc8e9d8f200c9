import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ReplayReport } from '@kcm-bus/runtime/replay/index.ts';
import { busFlags, kafkaFlags, rawKube, schedulableKwokNode, testStack, uniqueName } from '../support/stack.ts';
import { compactEtcd } from '@kcm-bus/harness/etcd.ts';
import { metricValue, startService, stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { restartApiserver } from '../support/restart.ts';
import { rcClient, rcManifest } from '@kcm-bus/harness/rc.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const stack = testStack();
const kube = rawKube();
const REPO = join(import.meta.dirname, '../..');

/** replay runs `reconciler-rc replay` as a user would, and returns its exit status and its JSON reports. */
async function replay(args: readonly string[]): Promise<{ code: number; reports: ReplayReport[] }> {
  const argv = [
    '--disable-warning=TimeoutNegativeWarning',
    join(REPO, 'services/reconciler-rc/src/main.ts'),
    'replay',
    ...kafkaFlags(stack),
    '--json',
    ...args,
  ];
  const answer = await promisify(execFile)(process.execPath, argv, { maxBuffer: 64 << 20, timeout: 300_000 }).then(
    (out) => ({ code: 0, stdout: out.stdout }),
    (err: { code?: number; stdout?: string }) => ({ code: err.code ?? 2, stdout: err.stdout ?? '' }),
  );
  return {
    code: answer.code,
    reports: answer.stdout
      .trim()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as ReplayReport),
  };
}

describe('kcm-bus replay: this build of reconciler-rc over a window of history, beside what the deployed one did', () => {
  const ns = uniqueName('replay');
  const { rcs, pods, running, scale } = rcClient(kube, ns);
  let from = '';
  let watcher: ServiceProcess;
  const watcherArgs = [...busFlags(stack), '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3'];

  before(async () => {
    await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    await schedulableKwokNode(uniqueName('kwok-replay'));
    watcher = await startService('watcher', watcherArgs);
    await startService('writer', [...busFlags(stack), '--kubeconfig', stack.kubeconfigs.writer, '--partitions', '3']);
    await startService('reconciler-rc', [...busFlags(stack), '--redis-url', stack.redis]);
    from = new Date().toISOString();
  });
  after(async () => {
    await stopAllServices();
    await kube('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
  });

  it('decides the creates and deletes the deployed controller made, and ends the RC status where it did', async () => {
    await kube('POST', rcs, rcManifest('web', 3));
    await running('web', 3);
    // Upstream's LogarithmicScaleDown ranks pods by log2 buckets of their ages at the sync's time; the replay's sync
    // time approximates the deployed one's (BATCH_MS after the record, or after a hold for its own write). Within a
    // few tens of milliseconds of a bucket's edge (1.07, 2.15, 4.29 s) that picks another pod of equal rank, so the
    // scale-down waits until the youngest pod is 5 s old: the next edge is 8.6 s.
    await waitFor(
      'the pods 5 s old',
      async () => (await pods('web')).every((p) => Date.now() - Date.parse(p.metadata.creationTimestamp ?? '') >= 5000),
      { intervalMs: 100 },
    );
    await scale('web', 1);
    await waitFor('one pod left', async () => (await pods('web')).length === 1);
    await waitFor(
      'status replicas 1',
      async () => ((await kube('GET', `${rcs}/web`))['status'] as { replicas?: number }).replicas === 1,
    );
    const verdict = await verdictSince(from);
    assert.ok(verdict.deployed >= 5, 'three creates, two deletes and status writes deployed');
  });

  it('replays a window with a relist after 410 (a pod deleted while the watcher was down) as the deployed controller acted', async () => {
    const since = new Date().toISOString();
    const [gone] = await pods('web');
    await watcher.stop();
    await kube('DELETE', `/api/v1/namespaces/${ns}/pods/${gone?.metadata.name}?gracePeriodSeconds=0`);
    await compactEtcd(stack.etcd);
    await restartApiserver();
    watcher = await startService('watcher', watcherArgs);
    await waitFor(
      'a relist after 410',
      async () => (await metricValue(watcher, 'kcm_bus_watcher_relists_total', { kind: 'Pod' })) >= 1,
    );
    await waitFor('the vanished pod replaced', async () =>
      (await running('web', 1)).every((p) => p.metadata.name !== gone?.metadata.name),
    );
    const verdict = await verdictSince(since);
    assert.ok(verdict.deployed >= 1, 'the replacement create deployed');
  });

  /** verdictSince replays from `since` to a moment after now, prints the key's verdict and asserts it found no difference. */
  async function verdictSince(since: string): Promise<ReplayReport['verdicts'][number]> {
    const to = new Date(Date.now() + 2000).toISOString();
    await waitFor('the window closed', () => Promise.resolve(Date.now() > Date.parse(to)));
    const { code, reports } = await replay(['--from', since, '--to', to]);
    const verdict = reports[0]?.verdicts.find((v) => v.key === `${ns}/web`);
    console.log(JSON.stringify(verdict, null, 2));
    assert.ok(verdict, `a verdict for ${ns}/web in ${JSON.stringify(reports)}`);
    assert.deepEqual([verdict.onlyDeployed, verdict.onlyReplayed], [[], []]);
    assert.equal(
      code,
      reports.some((r) => r.verdicts.some((v) => v.onlyDeployed.length + v.onlyReplayed.length > 0)) ? 1 : 0,
    );
    return verdict;
  }

  it('refuses a window it cannot read with a clear error and exit status 2', async () => {
    const { code } = await replay(['--from', 'last tuesday']);
    assert.equal(code, 2);
  });
});
