import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { busFlags, testStack, testWriterFlags } from '../support/stack.ts';
import { quotaScript } from '../support/quota-script.ts';
import { startService, stopAllServices } from '@kcm-bus/harness/processes.ts';
import { withUpstream } from '@kcm-bus/harness/upstream.ts';

const stack = testStack();
const bus = busFlags(stack);

describe('differential: resource quotas under upstream kube-controller-manager and under kcm-bus', () => {
  after(stopAllServices);

  it('writes the same status at each step of the script (strings included), about as soon', async () => {
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
  });
});
