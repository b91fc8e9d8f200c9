import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { busFlags, rawKube, schedulableKwokNode, testStack, testWriterFlags, uniqueName } from '../support/stack.ts';
import { type DeploymentClient, deploymentClient, deploymentManifest } from '@kcm-bus/harness/deployment.ts';
import { startService, stopAllServices } from '@kcm-bus/harness/processes.ts';
import { startUpstream, type Upstream } from '@kcm-bus/harness/upstream.ts';
import { waitFor, waitForSteady } from '@kcm-bus/harness/wait.ts';
import { convergedWorkloads, workloadSnapshot, type WorkloadSnapshot } from '@kcm-bus/harness/workload-snapshot.ts';

const stack = testStack();
const kube = rawKube();

/** image is a spec change to the Deployment's template: another image, optionally bound to a node no kubelet serves. */
const image =
  (name: string, i: string, nodeName?: string) =>
  (spec: object): Record<string, unknown> => ({
    ...spec,
    template: { metadata: { labels: { app: name } }, spec: { nodeName, containers: [{ name: 'c', image: i }] } },
  });

/**
 * script is the Deployment scenario both systems run, each in its own namespace, with the stack's
 * kube-controller-manager running the garbage collector and kcm-bus's or upstream's ReplicaSet controller beside the
 * Deployment controller under test: a Recreate rollout and a rollback by the deprecated annotation; a paused
 * Deployment scaled and changed, then resumed; a revision history of one; a ReplicaSet adopted by a Deployment
 * created after it; a rollout that stalls on pods that never start, then is scaled proportionally; a Deployment that
 * exceeds its progress deadline.
 */
async function script(ns: string): Promise<WorkloadSnapshot> {
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const d = deploymentClient(kube, ns);
  const stuck = deploymentManifest('stuck', 1, 'nginx:1', { progressDeadlineSeconds: 5 });
  await d.create('deployments', { ...stuck, spec: image('stuck', 'nginx:1', 'nowhere')(stuck['spec'] as object) });
  await recreateAndRollBack(d);
  await pauseScaleResume(d);
  await history(d);
  await adopt(d, ns);
  await stallThenScale(d, ns);
  return convergedWorkloads(kube, ns, (s) => {
    const stuck = JSON.stringify(s.deployments['stuck']);
    return stuck.includes('Progressing=False/ProgressDeadlineExceeded') && historyOf(s, 'history').length === 2;
  });
}

const historyOf = (s: WorkloadSnapshot, name: string): string[] =>
  Object.keys(s.replicaSets).filter((rs) => rs.startsWith(`${name}@`));

/** recreateAndRollBack: a Recreate Deployment rolled out to nginx:2, then back to revision 1 by the annotation. */
async function recreateAndRollBack(d: DeploymentClient): Promise<void> {
  await d.create('deployments', deploymentManifest('recreate', 2, 'nginx:1', { strategy: { type: 'Recreate' } }));
  await d.rolledOut('recreate');
  await d.change('deployments', 'recreate', image('recreate', 'nginx:2'));
  await d.rolledOut('recreate');
  await d.annotate('deployments', 'recreate', { 'deprecated.deployment.rollback.to': '1' });
  await d.rolledOut('recreate');
}

/** pauseScaleResume: paused, a Deployment is scaled (its ReplicaSet follows) and changed (nothing rolls out) until resumed. */
async function pauseScaleResume(d: DeploymentClient): Promise<void> {
  await d.create('deployments', deploymentManifest('paused', 2, 'nginx:1'));
  await d.rolledOut('paused');
  await d.change('deployments', 'paused', (spec) => ({ ...image('paused', 'nginx:2')(spec), paused: true }));
  await d.change('deployments', 'paused', (spec) => ({ ...spec, replicas: 4 }));
  await d.observed('paused');
  await d.change('deployments', 'paused', (spec) => ({ ...spec, paused: false }));
  await d.rolledOut('paused');
}

/** history: three rollouts of a Deployment that keeps one old ReplicaSet. */
async function history(d: DeploymentClient): Promise<void> {
  await d.create('deployments', deploymentManifest('history', 1, 'nginx:1', { revisionHistoryLimit: 1 }));
  for (const i of ['nginx:2', 'nginx:3']) {
    await d.rolledOut('history');
    await d.change('deployments', 'history', image('history', i));
  }
  await d.rolledOut('history');
}

/** adopt: a ReplicaSet with a Deployment's template, created first, becomes that Deployment's (no new ReplicaSet). */
async function adopt(d: DeploymentClient, ns: string): Promise<void> {
  const manifest = deploymentManifest('adopt', 2, 'nginx:1');
  await d.create('replicasets', { ...manifest, metadata: { name: 'orphan', labels: { app: 'adopt' } } });
  await waitFor('the orphan ReplicaSet ready', async () => {
    const rs = await kube('GET', `/apis/apps/v1/namespaces/${ns}/replicasets/orphan`);
    return (rs['status'] as { readyReplicas?: number }).readyReplicas === 2;
  });
  await d.create('deployments', manifest);
  await d.rolledOut('adopt');
}

/**
 * stallThenScale: a rollout to pods no kubelet starts stops where maxSurge and maxUnavailable hold it; scaled from 6
 * to 12 then, the Deployment spreads the new replicas over both ReplicaSets in proportion (getProportion).
 */
async function stallThenScale(d: DeploymentClient, ns: string): Promise<void> {
  const strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: 2 } };
  await d.create('deployments', deploymentManifest('prop', 6, 'nginx:1', { strategy }));
  await d.rolledOut('prop');
  await d.change('deployments', 'prop', image('prop', 'nginx:2', 'nowhere'));
  const stalled = (s: WorkloadSnapshot): boolean => historyOf(s, 'prop').length === 2;
  await waitForSteady('prop stalled', () => workloadSnapshot(kube, ns), stalled, { timeoutMs: 180_000 });
  await d.change('deployments', 'prop', (spec) => ({ ...spec, replicas: 12 }));
  await d.observed('prop');
}

describe("differential: the same Deployment script under upstream's deployment-controller and under kcm-bus ends in the same state", () => {
  let upstream: Upstream | undefined;
  before(async () => {
    await schedulableKwokNode(uniqueName('kwok-deploy'));
  });
  after(async () => {
    await upstream?.stop();
    await stopAllServices();
  });

  it('Deployments, ReplicaSets (by revision), statuses, conditions, pods and event reasons match', async () => {
    upstream = startUpstream(stack, {
      controllers: 'replicaset-controller,deployment-controller',
      qps: 100,
      burst: 100,
    });
    const expected = await script(uniqueName('deploy-up'));
    await upstream.stop();
    const bus = busFlags(stack);
    await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']);
    await startService('writer', testWriterFlags(bus));
    await startService('reconciler-rc', [...bus, '--redis-url', stack.redis]);
    const actual = await script(uniqueName('deploy-bus'));
    assert.deepEqual(actual, expected);
  });
});
