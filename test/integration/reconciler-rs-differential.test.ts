import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { busFlags, rawKube, schedulableKwokNode, testStack, testWriterFlags, uniqueName } from '../support/stack.ts';
import { deploymentClient, deploymentManifest } from '@kcm-bus/harness/deployment.ts';
import { convergedWorkloads, type WorkloadSnapshot } from '@kcm-bus/harness/workload-snapshot.ts';
import { startService, stopAllServices } from '@kcm-bus/harness/processes.ts';
import { startUpstream, type Upstream } from '@kcm-bus/harness/upstream.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const stack = testStack();
const kube = rawKube();

/**
 * script is the Deployment scenario both systems run, each in its own namespace, with the test stack's own
 * kube-controller-manager running the garbage collector and the ReplicaSet and Deployment controllers under test
 * (upstream's or kcm-bus's): a Deployment of 3 scaled to 5, rolled out to a new image and rolled back; a ReplicaSet
 * whose selector has matchExpressions adopting two orphans, one of them never Ready, then scaled down to 1; a
 * Deployment with minReadySeconds; a pod relabelled out of its ReplicaSet.
 */
async function script(ns: string): Promise<WorkloadSnapshot> {
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const d = deploymentClient(kube, ns);
  await d.create('deployments', deploymentManifest('web', 3, 'nginx:1'));
  await d.rolledOut('web');
  await d.change('deployments', 'web', (spec) => ({ ...spec, replicas: 5 }));
  await d.rolledOut('web');
  const image = (i: string) => (spec: Record<string, unknown>) => ({
    ...spec,
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: i }] } },
  });
  await d.change('deployments', 'web', image('nginx:2'));
  await d.rolledOut('web');
  await d.change('deployments', 'web', image('nginx:1'));
  await d.rolledOut('web');
  await adoptAndScaleDown(ns);
  await d.create('deployments', deploymentManifest('slow', 2, 'nginx:1', { minReadySeconds: 3 }));
  await d.rolledOut('slow');
  const [escaping] = (await d.pods()).filter((p) => p.metadata.labels?.['app'] === 'web');
  const pod = await kube('GET', `/api/v1/namespaces/${ns}/pods/${escaping?.metadata.name}`);
  await kube('PUT', `/api/v1/namespaces/${ns}/pods/${escaping?.metadata.name}`, {
    ...pod,
    metadata: { ...(pod['metadata'] as object), labels: { app: 'escaped' } },
  });
  return convergedWorkloads(
    kube,
    ns,
    (s) =>
      s.pods.includes('escaped nginx:1 owned by nobody Running') &&
      s.pods.filter((p) => p.startsWith('web nginx:1 owned by web@r')).length === 5 &&
      s.pods.filter((p) => p.startsWith('adopter ')).length === 1,
  );
}

/**
 * adoptAndScaleDown: two orphans a ReplicaSet's matchExpressions select, one Running and one that never leaves Pending
 * (bound to a node no kubelet serves), are both adopted by a ReplicaSet of 2; scaled to 1, it deletes the Pending one
 * (getPodsToDelete ranks a pod not Running first).
 */
async function adoptAndScaleDown(ns: string): Promise<void> {
  const labels = { app: 'adopter', tier: 'web' };
  const pods = `/api/v1/namespaces/${ns}/pods`;
  await kube('POST', pods, {
    metadata: { name: 'ready', labels },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  });
  await kube('POST', pods, {
    metadata: { name: 'unready', labels },
    spec: { nodeName: 'nowhere', containers: [{ name: 'c', image: 'nginx' }] },
  });
  await waitFor(
    'the orphan Running',
    async () => ((await kube('GET', `${pods}/ready`))['status'] as { phase?: string }).phase === 'Running',
  );
  const selector = {
    matchExpressions: [
      { key: 'app', operator: 'In', values: ['adopter'] },
      { key: 'tier', operator: 'Exists' },
    ],
  };
  const d = deploymentClient(kube, ns);
  await d.create('replicasets', {
    metadata: { name: 'adopter' },
    spec: {
      replicas: 2,
      selector,
      template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  });
  const owned = async (): Promise<string[]> =>
    (await d.pods())
      .filter((p) => p.metadata.ownerReferences?.some((r) => r.name === 'adopter'))
      .map((p) => p.metadata.name)
      .sort();
  await waitFor('both orphans adopted', async () => JSON.stringify(await owned()) === '["ready","unready"]');
  await d.change('replicasets', 'adopter', (spec) => ({ ...spec, replicas: 1 }));
  await waitFor('the Pending one deleted', async () => JSON.stringify(await owned()) === '["ready"]');
}

describe("differential: the same Deployment script under upstream's replicaset-controller and under kcm-bus ends in the same state", () => {
  let upstream: Upstream | undefined;
  before(async () => {
    await schedulableKwokNode(uniqueName('kwok-rs'));
  });
  after(async () => {
    await upstream?.stop();
    await stopAllServices();
  });

  it('Deployments, ReplicaSets, their statuses and conditions, pods and event reasons match, names aside', async () => {
    upstream = startUpstream(stack, {
      controllers: 'replicaset-controller,deployment-controller',
      qps: 100,
      burst: 100,
    });
    const expected = await script(uniqueName('rs-up'));
    await upstream.stop();
    const bus = busFlags(stack);
    await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']);
    await startService('writer', testWriterFlags(bus));
    await startService('reconciler-rc', [...bus, '--redis-url', stack.redis]);
    const actual = await script(uniqueName('rs-bus'));
    assert.deepEqual(actual, expected);
  });
});
