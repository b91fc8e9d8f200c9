import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { busFlags, rawKube, testStack, testWriterFlags, uniqueName } from '../support/stack.ts';
import { topicsHolding } from '../support/topics-holding.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { bucketIndex, quotaScript } from '../support/quota-script.ts';
import { startService, stopAllServices } from '@kcm-bus/harness/processes.ts';
import { withUpstream } from '@kcm-bus/harness/upstream.ts';

const stack = testStack();
const bus = busFlags(stack);
const kube = rawKube();

/** usedSecrets waits until the namespace's quota `q` counts `count` secrets. */
async function usedSecrets(ns: string, count: string): Promise<void> {
  const path = `/api/v1/namespaces/${ns}/resourcequotas/q`;
  await waitFor(`${ns}: ${count} secrets counted`, async () => {
    const status = (await kube('GET', path))['status'] as { used?: Record<string, string> } | undefined;
    return status?.used?.['count/secrets'] === count;
  });
}

/**
 * appliedSecretCounted: a Secret applied as `kubectl apply` does (its value in the last-applied-configuration
 * annotation too) is counted and, deleted, given back, which only its metadata-only record can have told the
 * controller; and no topic holds its value, raw or base64.
 */
async function appliedSecretCounted(): Promise<void> {
  const ns = uniqueName('quota-secret');
  const value = `kcm-bus-test-value-${uniqueName('v')}`;
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  await kube('POST', `/api/v1/namespaces/${ns}/resourcequotas`, {
    metadata: { name: 'q' },
    spec: { hard: { 'count/secrets': '5' } },
  });
  await usedSecrets(ns, '0');
  const applied = JSON.stringify({ apiVersion: 'v1', kind: 'Secret', stringData: { k: value } });
  await kube('POST', `/api/v1/namespaces/${ns}/secrets`, {
    metadata: { name: 'applied', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': applied } },
    stringData: { k: value },
  });
  await usedSecrets(ns, '1');
  await kube('DELETE', `/api/v1/namespaces/${ns}/secrets/applied`);
  await usedSecrets(ns, '0');
  assert.deepEqual(await topicsHolding(stack, [value]), { [value]: [] });
}

describe('differential: resource quotas under upstream kube-controller-manager and under kcm-bus', () => {
  after(stopAllServices);

  it('writes the same status at each step of the script (strings included), about as soon; counts a Secret by its identity alone', async () => {
    const controllers = 'resourcequota-controller,root-ca-certificate-publisher-controller';
    const theirs = await withUpstream(stack, { controllers }, () => quotaScript('upstream'));
    await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']);
    await startService('writer', testWriterFlags(bus));
    await startService('reconciler-namespace', [...bus, '--root-ca-file', stack.caFile]);
    const ours = await quotaScript('kcm-bus');
    console.log(JSON.stringify({ upstream: theirs, kcmBus: ours }));
    const statusOf = (steps: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, (v as { status: unknown }).status]));
    assert.deepEqual(statusOf(ours), statusOf(theirs));
    // How soon: each step right no more than two buckets after upstream's (under 1 s there: under 5 s here).
    for (const [name, step] of Object.entries(ours)) {
      const late = bucketIndex((step as { soon: string }).soon) - bucketIndex((theirs[name] as { soon: string }).soon);
      assert.ok(late <= 2, `${name}: right ${JSON.stringify(step)} against upstream's ${JSON.stringify(theirs[name])}`);
    }
    await appliedSecretCounted();
  });
});
