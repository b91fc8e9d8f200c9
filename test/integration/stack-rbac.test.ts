import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { kubeClients, testStack, uniqueName } from '../support/stack.ts';

function pod(name: string): V1Pod {
  return {
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'c', image: 'busybox' }], nodeName: 'nowhere' },
  };
}

async function status(call: () => Promise<unknown>): Promise<number> {
  try {
    await call();
    return 200;
  } catch (err) {
    return (err as { code?: number }).code ?? 0;
  }
}

describe('least privilege of the kcm-bus identities', () => {
  const stack = testStack();
  const watcher = kubeClients(stack.kubeconfigs.watcher);
  const writer = kubeClients(stack.kubeconfigs.writer);

  it('lets the watcher list and forbids it every mutation', async () => {
    assert.equal(await status(() => watcher.core.listPodForAllNamespaces({ limit: 1 })), 200);
    assert.equal(await status(() => watcher.coordination.listLeaseForAllNamespaces({ limit: 1 })), 200);
    assert.equal(
      await status(() => watcher.core.createNamespacedPod({ namespace: 'default', body: pod(uniqueName('w')) })),
      403,
    );
    assert.equal(await status(() => watcher.core.deleteNamespacedPod({ namespace: 'default', name: 'x' })), 403);
  });

  it("lets the writer create and delete pods, list them as the namespace controller's content passes do, and create no other kind", async () => {
    const name = uniqueName('writer');
    assert.equal(await status(() => writer.core.createNamespacedPod({ namespace: 'default', body: pod(name) })), 200);
    assert.equal(
      await status(() => writer.core.deleteNamespacedPod({ namespace: 'default', name, gracePeriodSeconds: 0 })),
      200,
    );
    assert.equal(await status(() => writer.core.listPodForAllNamespaces({ limit: 1 })), 200);
    assert.equal(
      await status(() => writer.core.createNamespacedService({ namespace: 'default', body: { metadata: { name } } })),
      403,
    );
  });
});
