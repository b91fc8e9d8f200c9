import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { busFlags, rawKube, testStack, testWriterFlags, uniqueName } from '../support/stack.ts';
import { mutation, produceMutations, resultsFor } from '@kcm-bus/harness/mutations.ts';
import { startService, stopAllServices } from '@kcm-bus/harness/processes.ts';
import { withUpstream } from '@kcm-bus/harness/upstream.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const stack = testStack();
const kube = rawKube();
const bus = busFlags(stack);
const HOLD = 'kcm-bus.test/hold';

type Condition = { readonly type: string; readonly status: string; readonly reason: string; readonly message: string };
type Namespace = { readonly metadata: { readonly uid: string }; readonly status?: { conditions?: Condition[] } };

/** CONTENT is what the script puts in a namespace: a kind's collection path and the objects it creates there. */
const CONTENT: readonly (readonly [string, readonly object[]])[] = [
  ['api/v1/configmaps', [{ metadata: { name: 'a' } }, { metadata: { name: 'held', finalizers: [HOLD] } }]],
  ['api/v1/secrets', [{ metadata: { name: 's' }, stringData: { k: 'v' } }]],
  ['api/v1/services', [{ metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } }]],
  [
    'api/v1/pods',
    [1, 2].map((i) => ({
      metadata: { name: `p${i}` },
      spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'c', image: 'x' }] },
    })),
  ],
  [
    'api/v1/replicationcontrollers',
    [{ metadata: { name: 'rc' }, spec: { replicas: 0, selector: { a: 'b' }, template: podTemplate() } }],
  ],
  [
    'apis/apps/v1/deployments',
    [
      {
        metadata: { name: 'd' },
        spec: { replicas: 0, selector: { matchLabels: { a: 'b' } }, template: podTemplate() },
      },
    ],
  ],
];

function podTemplate(): object {
  return { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } };
}

const at = (ns: string, collection: string): string => `/${collection.replace(/\/([a-z]+)$/, `/namespaces/${ns}/$1`)}`;

/** left is what remains of the content, by collection: names. */
async function left(ns: string): Promise<Record<string, string[]>> {
  const entries = await Promise.all(
    CONTENT.map(async ([c]) => {
      const items = (await kube('GET', at(ns, c)))['items'] as { metadata: { name: string } }[];
      return [c, items.map((i) => i.metadata.name).filter((n) => n !== 'kube-root-ca.crt' && n !== 'default')];
    }),
  );
  return Object.fromEntries(entries);
}

/** namespaceOf reads the namespace, undefined once it is gone. */
async function namespaceOf(ns: string): Promise<Namespace | undefined> {
  const all = (await kube('GET', '/api/v1/namespaces'))['items'] as (Namespace & { metadata: { name: string } })[];
  return all.find((n) => n.metadata.name === ns);
}

const APISERVICES = '/apis/apiregistration.k8s.io/v1/apiservices';
/** GONE_API is an aggregated API whose service does not exist: discovery serves its group version as stale. */
const GONE_API = {
  metadata: { name: 'v1.gone.kcm-bus.test' },
  spec: {
    group: 'gone.kcm-bus.test',
    version: 'v1',
    service: { namespace: 'default', name: 'kcm-bus-nowhere', port: 443 },
    insecureSkipTLSVerify: true,
    groupPriorityMinimum: 1000,
    versionPriority: 15,
  },
};

/** goneApi registers GONE_API and waits until the aggregator says it is unavailable. */
async function goneApi(): Promise<void> {
  await kube('POST', APISERVICES, GONE_API);
  await waitFor('the gone API unavailable', async () => {
    const status = (await kube('GET', `${APISERVICES}/${GONE_API.metadata.name}`))['status'] as
      { conditions?: Condition[] } | undefined;
    return status?.conditions?.some((c) => c.type === 'Available' && c.status === 'False') ? true : undefined;
  });
}

/**
 * script: a namespace holding config maps (one held by a finalizer of ours), a secret, a service, pods, an RC and a
 * Deployment is deleted while an aggregated API is unavailable; while the held one stays, the namespace's conditions
 * (the discovery failure among them) and what is left; released, and the API registered again, the namespace goes.
 */
async function script(system: string): Promise<Record<string, unknown>> {
  const ns = uniqueName(`nsd-${system}`);
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  for (const [collection, objects] of CONTENT) for (const o of objects) await kube('POST', at(ns, collection), o);
  await goneApi();
  await kube('DELETE', `/api/v1/namespaces/${ns}`);
  const held = await waitFor(
    `${system}: ${ns} says what holds it`,
    async () => {
      const conditions = (await namespaceOf(ns))?.status?.conditions ?? [];
      const holds = (type: string) => conditions.find((c) => c.type === type)?.status === 'True';
      return holds('NamespaceFinalizersRemaining') && holds('NamespaceDeletionDiscoveryFailure')
        ? conditions
        : undefined;
    },
    { timeoutMs: 180_000 },
  );
  const remaining = await left(ns);
  const cm = at(ns, 'api/v1/configmaps');
  const object = await kube('GET', `${cm}/held`);
  await kube('PUT', `${cm}/held`, { ...object, metadata: { ...(object['metadata'] as object), finalizers: [] } });
  await kube('DELETE', `${APISERVICES}/${GONE_API.metadata.name}`);
  await waitFor(`${system}: ${ns} gone`, async () => ((await namespaceOf(ns)) === undefined ? true : undefined), {
    timeoutMs: 180_000,
  });
  const conditions = held.map(({ type, status, reason, message }) => ({ type, status, reason, message }));
  return { conditions, remaining };
}

/** forgedPass: a DeleteNamespaceContent for a live namespace, signed as the controller (a replay, a forger's key), is refused. */
async function forgedPass(): Promise<void> {
  const ns = uniqueName('nsd-live');
  const live = (await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } })) as Namespace;
  await kube('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'kept' } });
  const target = {
    apiVersion: 'v1',
    kind: 'Namespace',
    namespace: null,
    name: ns,
    resource: 'namespaces',
    subresource: null,
  };
  const pass = mutation({
    controller: 'namespace-controller',
    verb: 'DeleteNamespaceContent',
    target,
    preconditions: { uid: live.metadata.uid, resourceVersion: null },
    reconcileKey: ns,
  });
  await produceMutations(stack, [pass]);
  const result = (await resultsFor(stack, [pass])).get(pass.id)!.at(-1)!;
  assert.deepEqual([result.outcome, result.reason], ['Refused', 'LiveCheckFailed']);
  assert.deepEqual(await left(ns).then((l) => l['api/v1/configmaps']), ['kept']);
}

describe('differential: deleting a namespace under upstream kube-controller-manager and under kcm-bus', () => {
  after(stopAllServices);
  after(() => kube('DELETE', `${APISERVICES}/${GONE_API.metadata.name}`).catch(() => undefined));

  it('deletes the same content, says the same while a finalizer and a gone API hold it, goes once released; a pass for a live namespace is refused', async () => {
    const theirs = await withUpstream(stack, { controllers: 'namespace-controller' }, () => script('upstream'));
    await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']);
    await startService('writer', testWriterFlags(bus));
    await startService('reconciler-namespace', [...bus, '--root-ca-file', stack.caFile]);
    const ours = await script('kcm-bus');
    assert.deepEqual(ours, theirs);
    assert.deepEqual((ours['remaining'] as Record<string, string[]>)['api/v1/configmaps'], ['held']);
    const discovery = (ours['conditions'] as Condition[]).find((c) => c.type === 'NamespaceDeletionDiscoveryFailure');
    assert.match(discovery?.message ?? '', /gone\.kcm-bus\.test\/v1: stale GroupVersion discovery/);
    await forgedPass();
  });
});
