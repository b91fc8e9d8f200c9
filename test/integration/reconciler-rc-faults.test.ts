import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Node } from '@kubernetes/client-node';
import { kwokNode } from '@kcm-bus/stack/kube-access.ts';
import { busFlags, kubeClients, rawKube, testStack, uniqueName } from '../support/stack.ts';
import { startService, stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { ownedCounter, rcClient, rcManifest } from '@kcm-bus/harness/rc.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const stack = testStack();
const kube = rawKube();
const bus = busFlags(stack);
// The writer at upstream's default 20/30 QPS: 300 pods take long enough (~15 s) for a fault to land mid-scale-up.
const writerFlags = [...bus, '--kubeconfig', stack.kubeconfigs.writer, '--partitions', '3'];
const reconcilerFlags = [...bus, '--redis-url', stack.redis];

/**
 * No over-creation, ever: an RC scaled 0 → 300 while a part of kcm-bus crashes or moves never has more than 300
 * pods it owns alive, and has exactly 300 at the end. The restarted reconciler keeps the default expectations TTL
 * (10 min): it must resume from what Redis and the replayed topics say, not from expectations timing out.
 */
describe('reconciler-rc under faults: kill -9, restart, rebalance during 0 -> 300', () => {
  const ns = uniqueName('rcf');
  const client = rcClient(kube, ns);
  let reconciler: ServiceProcess;
  let writer: ServiceProcess;

  before(async () => {
    await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    await kubeClients(stack.kubeconfig).core.createNode({ body: kwokNode(uniqueName('kwok-rcf')) as V1Node });
    await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']);
    writer = await startService('writer', writerFlags);
    reconciler = await startService('reconciler-rc', reconcilerFlags);
  });
  after(stopAllServices);

  /** scaleTo300 creates an RC of 300, runs `fault` once 100 pods exist, and checks the owned pods throughout. */
  async function scaleTo300(name: string, fault: () => Promise<void>): Promise<void> {
    const created = await client.create(rcManifest(name, 300));
    const owned = ownedCounter(client, name, created.metadata.uid);
    await waitFor('100 pods', async () => (await owned.count()) >= 100, { intervalMs: 50 });
    await fault();
    await waitFor('exactly 300 owned pods', async () => (await owned.count()) === 300, {
      timeoutMs: 240_000,
      intervalMs: 200,
    });
    for (let i = 0; i < 10; i++) await owned.count();
    assert.ok(owned.most() <= 300, `at most 300 owned pods alive (saw ${owned.most()})`);
    assert.equal(await owned.count(), 300);
  }

  it('kill -9 of reconciler-rc, restarted with the default expectations TTL', async () => {
    await scaleTo300('rc-killed', async () => {
      reconciler.process.kill('SIGKILL');
      await reconciler.exited;
      reconciler = await startService('reconciler-rc', reconcilerFlags);
    });
  });

  it('kill -9 of the writer, restarted', async () => {
    await scaleTo300('writer-killed', async () => {
      writer.process.kill('SIGKILL');
      await writer.exited;
      writer = await startService('writer', writerFlags);
    });
  });

  it('a second reconciler-rc joins (rebalance), then the first leaves (its partitions move)', async () => {
    await scaleTo300('rebalanced', async () => {
      const second = await startService('reconciler-rc', reconcilerFlags);
      await reconciler.stop();
      reconciler = second;
    });
  });
});
