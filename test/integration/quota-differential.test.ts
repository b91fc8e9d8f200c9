import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { busFlags, testStack, testWriterFlags } from '../support/stack.ts';
import { bucketIndex, quotaScript } from '../support/quota-script.ts';
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
    // How soon: each step right no more than two buckets after upstream's (under 1 s there: under 5 s here).
    for (const [name, step] of Object.entries(ours)) {
      const late = bucketIndex((step as { soon: string }).soon) - bucketIndex((theirs[name] as { soon: string }).soon);
      assert.ok(late <= 2, `${name}: right ${JSON.stringify(step)} against upstream's ${JSON.stringify(theirs[name])}`);
    }
  });
});
