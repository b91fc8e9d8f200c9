import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { busFlags, rawKube, testStack, testWriterFlags, uniqueName } from '../support/stack.ts';
import { startService, stopAllServices } from '@kcm-bus/harness/processes.ts';
import { startUpstream } from '@kcm-bus/harness/upstream.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const stack = testStack();
const kube = rawKube();
const bus = busFlags(stack);

type Account = {
  readonly metadata: { readonly name: string; readonly uid: string } & Record<string, unknown>;
} & Record<string, unknown>;

/** OWN are an object's own identity (uid, version, time, namespace) and who wrote it: what shape leaves aside. */
const OWN = new Set(['uid', 'resourceVersion', 'creationTimestamp', 'namespace', 'managedFields']);

/** shape is what a user sees of an account, OWN aside. */
function shape(a: Account): Record<string, unknown> {
  return { ...a, metadata: Object.fromEntries(Object.entries(a.metadata).filter(([k]) => !OWN.has(k))) };
}

/**
 * script is what both systems are put through, each in a namespace of its own: the new namespace's `default` account,
 * then `default` and an account of the user's deleted together: `default` comes back (a new uid), the user's does not.
 */
async function script(system: string): Promise<Record<string, unknown>> {
  const ns = uniqueName(`sa-${system}`);
  const accounts = `/api/v1/namespaces/${ns}/serviceaccounts`;
  const list = async (): Promise<Account[]> => ((await kube('GET', accounts))['items'] as Account[]) ?? [];
  const named = async (name: string): Promise<Account | undefined> =>
    (await list()).find((a) => a.metadata.name === name);
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const first = await waitFor(`${system}: ${ns}/default created`, () => named('default'), { timeoutMs: 120_000 });
  await kube('POST', accounts, { metadata: { name: 'users' } });
  await kube('DELETE', `${accounts}/users`);
  await kube('DELETE', `${accounts}/default`);
  const again = await waitFor(
    `${system}: ${ns}/default created again`,
    async () => {
      const a = await named('default');
      return a !== undefined && a.metadata.uid !== first.metadata.uid ? a : undefined;
    },
    { timeoutMs: 120_000 },
  );
  return { created: shape(first), recreated: shape(again), accounts: (await list()).map((a) => a.metadata.name) };
}

describe('differential: a namespace and its default ServiceAccount under upstream kube-controller-manager and under kcm-bus', () => {
  after(stopAllServices);

  it('creates the same account in a new namespace, again once deleted, and leaves a deleted account of the user deleted', async () => {
    const upstream = startUpstream(stack, { controllers: 'serviceaccount-controller' });
    let theirs: Record<string, unknown>;
    try {
      theirs = await script('upstream');
    } finally {
      await upstream.stop();
    }
    await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']);
    await startService('writer', testWriterFlags(bus));
    await startService('reconciler-namespace', bus);
    const ours = await script('kcm-bus');
    assert.deepEqual(ours, theirs);
    assert.deepEqual(ours['accounts'], ['default']);
  });
});
