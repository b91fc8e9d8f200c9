import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { kwokNode } from '@kcm-bus/stack/kube-access.ts';
import { kubeClients, rawKube, testStack, uniqueName, untaintWhenReady } from '../support/stack.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';

function isReady(node: V1Node): boolean {
  return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

describe('the local stack: kube-apiserver, kube-scheduler and kwok', () => {
  const stack = testStack();
  const admin = kubeClients(stack.kubeconfig);
  const nodeName = uniqueName('kwok-it');

  before(async () => {
    await admin.core.createNode({ body: kwokNode(nodeName) as V1Node });
  });

  it('makes a kwok node Ready and renews its Lease', async () => {
    await waitFor(`node ${nodeName} Ready`, async () => isReady(await admin.core.readNode({ name: nodeName })));
    const lease = await waitFor('the node Lease', () =>
      admin.coordination.readNamespacedLease({ name: nodeName, namespace: 'kube-node-lease' }),
    );
    const first = new Date(lease.spec?.renewTime ?? 0).getTime();
    const renewed = await waitFor(
      'a Lease renewal',
      async () => {
        const now = await admin.coordination.readNamespacedLease({ name: nodeName, namespace: 'kube-node-lease' });
        return new Date(now.spec?.renewTime ?? 0).getTime() > first ? now : undefined;
      },
      { timeoutMs: 90_000 },
    );
    assert.ok(new Date(renewed.spec?.renewTime ?? 0).getTime() > first);
    assert.equal(renewed.metadata?.ownerReferences?.[0]?.name, nodeName, 'the Lease belongs to the node');
  });

  it('gives a new node the not-ready taint, which its node lifecycle (reconciler-node; none in the test stack) must take off', async () => {
    const node = await admin.core.readNode({ name: nodeName });
    assert.ok((node.spec?.taints ?? []).some((t) => t.key === NOT_READY_TAINT && t.effect === 'NoSchedule'));
    await untaintWhenReady(rawKube(), nodeName);
    assert.ok(isReady(await admin.core.readNode({ name: nodeName })));
  });

  it('schedules a pod that kwok then runs with an IP', async () => {
    const name = uniqueName('pod');
    const body: V1Pod = {
      metadata: { name, namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'busybox' }], nodeSelector: { 'kubernetes.io/hostname': nodeName } },
    };
    await admin.core.createNamespacedPod({ namespace: 'default', body });
    const pod = await waitFor(`pod ${name} Running`, async () => {
      const p = await admin.core.readNamespacedPod({ name, namespace: 'default' });
      return p.status?.phase === 'Running' && p.status.podIP ? p : undefined;
    });
    assert.equal(pod.spec?.nodeName, nodeName);
    assert.match(pod.status?.podIP ?? '', /^10\.244\./);
    await admin.core.deleteNamespacedPod({ name, namespace: 'default', gracePeriodSeconds: 0 });
  });
});
