import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { busFlags, rawKube, testStack, testWriterFlags, uniqueName } from '../support/stack.ts';
import { startService, stopAllServices } from '@kcm-bus/harness/processes.ts';
import { readRaw } from '@kcm-bus/harness/topic.ts';
import { withUpstream } from '@kcm-bus/harness/upstream.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { watchTopic } from '@kcm-bus/schemas/kinds.ts';

const stack = testStack();
const kube = rawKube();
const bus = busFlags(stack);

type Obj = {
  readonly metadata: { readonly name: string; readonly uid: string } & Record<string, unknown>;
  readonly data?: Record<string, string>;
} & Record<string, unknown>;

/** OWN are an object's own identity (uid, version, time, namespace) and who wrote it: what shape leaves aside. */
const OWN = new Set(['uid', 'resourceVersion', 'creationTimestamp', 'namespace', 'managedFields']);

/** shape is what a user sees of an object, OWN aside. */
function shape(o: Obj): Record<string, unknown> {
  return { ...o, metadata: Object.fromEntries(Object.entries(o.metadata).filter(([k]) => !OWN.has(k))) };
}

/** Namespaced reads one kind of a namespace: every object, one by name, one by name once a probe holds for it. */
function namespaced(system: string, ns: string, plural: string) {
  const path = `/api/v1/namespaces/${ns}/${plural}`;
  const named = async (name: string): Promise<Obj | undefined> =>
    ((await kube('GET', path))['items'] as Obj[]).find((o) => o.metadata.name === name);
  return {
    path,
    names: async () => ((await kube('GET', path))['items'] as Obj[]).map((o) => o.metadata.name).sort(),
    once: (what: string, name: string, holds: (o: Obj) => boolean = () => true) =>
      waitFor(
        `${system}: ${ns}/${name} ${what}`,
        async () => {
          const o = await named(name);
          return o !== undefined && holds(o) ? o : undefined;
        },
        { timeoutMs: 120_000 },
      ),
  };
}

/**
 * accounts: the new namespace's `default` account; then `default` and an account of the user's deleted together:
 * `default` comes back (a new uid), the user's does not.
 */
async function accounts(system: string, ns: string): Promise<Record<string, unknown>> {
  const sa = namespaced(system, ns, 'serviceaccounts');
  const first = await sa.once('created', 'default');
  await kube('POST', sa.path, { metadata: { name: 'users' } });
  await kube('DELETE', `${sa.path}/users`);
  await kube('DELETE', `${sa.path}/default`);
  const again = await sa.once('created again', 'default', (a) => a.metadata.uid !== first.metadata.uid);
  return { created: shape(first), recreated: shape(again), names: await sa.names() };
}

/** rootCA: the new namespace's `kube-root-ca.crt`; tampered with, it is restored; deleted, it is created again. */
async function rootCA(system: string, ns: string): Promise<Record<string, unknown>> {
  const cm = namespaced(system, ns, 'configmaps');
  const first = await cm.once('published', 'kube-root-ca.crt');
  const tampered = { ...first, data: { 'ca.crt': 'tampered', extra: 'x' } };
  await kube('PUT', `${cm.path}/kube-root-ca.crt`, tampered);
  const restored = await cm.once('restored', 'kube-root-ca.crt', (o) => o.data?.['extra'] === undefined);
  await kube('DELETE', `${cm.path}/kube-root-ca.crt`);
  const again = await cm.once('published again', 'kube-root-ca.crt', (o) => o.metadata.uid !== first.metadata.uid);
  return { published: shape(first), restored: shape(restored), republished: shape(again) };
}

/** script is what both systems are put through, each in a namespace of its own, beside a config map of the user's. */
async function script(system: string): Promise<Record<string, unknown>> {
  const ns = uniqueName(`nsl-${system}`);
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  await kube('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'users' }, data: { a: 'b' } });
  return { ns, accounts: await accounts(system, ns), rootCA: await rootCA(system, ns) };
}

describe("differential: a namespace's account and root CA under upstream kube-controller-manager and under kcm-bus", () => {
  after(stopAllServices);

  it('creates the same ones, restores and recreates them alike, and carries no config map of the user on the bus', async () => {
    const theirs = await withUpstream(
      stack,
      {
        controllers: 'serviceaccount-controller,root-ca-certificate-publisher-controller',
      },
      () => script('upstream'),
    );
    await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']);
    await startService('writer', testWriterFlags(bus));
    await startService('reconciler-namespace', [...bus, '--root-ca-file', stack.caFile]);
    const { ns, ...ours } = await script('kcm-bus');
    const { ns: _, ...expected } = theirs;
    assert.deepEqual(ours, expected);
    assert.deepEqual((ours['accounts'] as Record<string, unknown>)['names'], ['default']);
    const carried = (await readRaw(stack, watchTopic({ plural: 'configmaps' }))).map((r) => r.key);
    assert.ok(carried.includes(`${ns}/kube-root-ca.crt`), 'the root CA ConfigMap is on its topic');
    assert.ok(!carried.some((k) => k.endsWith('/users')), "no config map of the user's is");
  });
});
