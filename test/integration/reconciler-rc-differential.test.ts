import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Node } from '@kubernetes/client-node';
import { kwokNode } from '@kcm-bus/stack/kube-access.ts';
import { busFlags, kubeClients, rawKube, testStack, uniqueName } from '../support/stack.ts';
import { startService, stopAllServices } from '../support/processes.ts';
import { type Pod, type Rc, rcClient, type RcClient, rcManifest } from '../support/rc.ts';
import { startUpstream, type Upstream } from '../support/upstream.ts';
import { waitFor } from '../support/wait.ts';

const stack = testStack();
const kube = rawKube();
const RCS = ['web', 'adopter', 'steady'];

/**
 * script is the scenario both systems run, each in its own namespace: an RC of 3; one of its pods deleted; scaled
 * to 5, then 2; an orphan adopted by a new RC; a pod relabelled out of its RC; an RC with minReadySeconds.
 */
async function script(ns: string): Promise<Snapshot> {
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const c = rcClient(kube, ns);
  await c.create(rcManifest('web', 3));
  const [victim] = await c.running('web', 3);
  await kube('DELETE', `/api/v1/namespaces/${ns}/pods/${victim?.metadata.name}?gracePeriodSeconds=0`);
  await c.running('web', 3);
  await c.scale('web', 5);
  await c.running('web', 5);
  await c.scale('web', 2);
  await c.running('web', 2);
  await kube('POST', `/api/v1/namespaces/${ns}/pods`, { metadata: { name: 'orphan', labels: { app: 'adopter' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
  await c.create(rcManifest('adopter', 1));
  const [escaping] = await c.running('web', 2);
  const pod = await kube('GET', `/api/v1/namespaces/${ns}/pods/${escaping?.metadata.name}`);
  await kube('PUT', `/api/v1/namespaces/${ns}/pods/${escaping?.metadata.name}`, { ...pod, metadata: { ...pod['metadata'] as object, labels: { app: 'escaped' } } });
  await c.create(rcManifest('steady', 2, { minReadySeconds: 3 }));
  return settled(c, ns);
}

/** Snapshot is a namespace's end state, names aside: each RC's spec, status and owned pods; who owns which pod. */
type Snapshot = { readonly rcs: Record<string, unknown>; readonly pods: readonly string[] };

async function snapshot(c: RcClient, ns: string): Promise<Snapshot> {
  const pods = ((await kube('GET', `/api/v1/namespaces/${ns}/pods`))['items'] as Pod[]).filter((p) => !p.metadata.deletionTimestamp);
  const rcs: Record<string, unknown> = {};
  for (const name of RCS) {
    const rc: Rc = await c.get(name);
    const owned = pods.filter((p) => p.metadata.ownerReferences?.some((r) => r.uid === rc.metadata.uid));
    const refs = [...new Set(owned.map((p) => JSON.stringify(p.metadata.ownerReferences?.map(({ uid: _uid, ...ref }) => ref))))];
    const { conditions, ...status } = rc.status ?? {};
    rcs[name] = { replicas: rc.spec.replicas, generation: rc.metadata.generation, status, conditions: conditions?.map((x) => x.type) ?? [], owned: owned.length, refs };
  }
  const describe = (p: Pod): string => `${p.metadata.labels?.['app']} owned by ${p.metadata.ownerReferences?.map((r) => r.name).join(',') ?? 'nobody'}${p.metadata.name === 'orphan' ? ' (the orphan)' : ''}`;
  return { rcs, pods: pods.map(describe).sort() };
}

/** settled waits until every RC reports its replicas available at its generation and three polls agree. */
async function settled(c: RcClient, ns: string): Promise<Snapshot> {
  let last = '';
  let same = 0;
  return waitFor(`${ns} settled`, async () => {
    const s = await snapshot(c, ns);
    const done = RCS.every((name) => {
      const rc = s.rcs[name] as { replicas: number; generation: number; owned: number; status: Rc['status'] };
      return rc.owned === rc.replicas && rc.status?.replicas === rc.replicas && rc.status.availableReplicas === rc.replicas && rc.status.observedGeneration === rc.generation;
    });
    same = done && JSON.stringify(s) === last ? same + 1 : 0;
    last = JSON.stringify(s);
    return same >= 2 ? s : undefined;
  }, { timeoutMs: 240_000, intervalMs: 1000 });
}

describe('differential: the same RC script under upstream kube-controller-manager and under kcm-bus ends in the same state', () => {
  let upstream: Upstream | undefined;
  before(async () => {
    await kubeClients(stack.kubeconfig).core.createNode({ body: kwokNode(uniqueName('kwok-diff')) as V1Node });
  });
  after(async () => {
    await upstream?.stop();
    await stopAllServices();
  });

  it('pod counts, owner references and RC status match, names aside', async () => {
    upstream = startUpstream(stack);
    const expected = await script(uniqueName('diff-up'));
    await upstream.stop();
    const bus = busFlags(stack);
    await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']);
    await startService('writer', [...bus, '--kubeconfig', stack.kubeconfigs.writer, '--partitions', '3']);
    await startService('reconciler-rc', [...bus, '--redis-url', stack.redis]);
    const actual = await script(uniqueName('diff-bus'));
    assert.deepEqual(actual, expected);
  });
});
