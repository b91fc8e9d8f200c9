import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  rawKube,
  schedulableKwokNode,
  serviceBusFlags,
  testStack,
  testWriterFlags,
  uniqueName,
} from '../support/stack.ts';
import { metricValue, startService, stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { type Pod, type Rc, rcClient, rcManifest } from '@kcm-bus/harness/rc.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const stack = testStack();
const kube = rawKube();

describe('reconciler-rc end to end: watcher → Kafka → reconciler-rc → Kafka → writer → apiserver', () => {
  const ns = uniqueName('rc');
  const { rcs, pods, owned, scale, running } = rcClient(kube, ns);
  const rc = rcManifest;
  let reconciler: ServiceProcess;
  let writer: ServiceProcess;

  before(async () => {
    await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    await schedulableKwokNode(uniqueName('kwok-rc'));
    await startService('watcher', [
      ...serviceBusFlags(stack, 'watcher'),
      '--kubeconfig',
      stack.kubeconfigs.watcher,
      '--partitions',
      '3',
    ]);
    writer = await startService('writer', testWriterFlags(serviceBusFlags(stack, 'writer')));
    reconciler = await startService('reconciler-rc', [
      ...serviceBusFlags(stack, 'reconciler-rc'),
      '--redis-url',
      stack.redis,
    ]);
  });
  after(stopAllServices);

  it('gives an RC of 3 three Running pods it owns, and reports them in its status', async () => {
    const created = (await kube('POST', rcs, rc('web', 3))) as unknown as Rc;
    await running('web', 3);
    const mine = await owned('web', created.metadata.uid);
    assert.equal(mine.length, 3);
    await waitFor('status replicas 3, ready 3', async () => {
      const s = ((await kube('GET', `${rcs}/web`)) as unknown as Rc).status;
      return s?.replicas === 3 && s.readyReplicas === 3 && s.availableReplicas === 3;
    });
    // The SuccessfulCreate attached to each Create is recorded once that create applied, naming the pod it made.
    await waitFor('a SuccessfulCreate per pod', async () => {
      const events = (await kube('GET', `/api/v1/namespaces/${ns}/events`))['items'] as {
        reason: string;
        message: string;
      }[];
      const named = events
        .filter((e) => e.reason === 'SuccessfulCreate')
        .map((e) => e.message)
        .sort();
      return JSON.stringify(named) === JSON.stringify(mine.map((p) => `Created pod: ${p.metadata.name}`).sort());
    });
  });

  it('replaces a deleted pod', async () => {
    const [victim] = await pods('web');
    await kube('DELETE', `/api/v1/namespaces/${ns}/pods/${victim?.metadata.name}?gracePeriodSeconds=0`);
    const after = await running('web', 3);
    assert.ok(!after.some((p) => p.metadata.name === victim?.metadata.name));
  });

  it('scales 3 → 10 → 0', async () => {
    await scale('web', 10);
    await running('web', 10);
    await scale('web', 0);
    await waitFor('no pods', async () => (await pods('web')).length === 0);
  });

  it('adopts a matching orphan instead of creating a pod', async () => {
    await kube('POST', `/api/v1/namespaces/${ns}/pods`, {
      metadata: { name: 'orphan', labels: { app: 'adopter' } },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
    const created = (await kube('POST', rcs, rc('adopter', 1))) as unknown as Rc;
    await waitFor('the orphan adopted', async () =>
      (await owned('adopter', created.metadata.uid)).some((p) => p.metadata.name === 'orphan'),
    );
    // If the RC reached reconciler-rc before the orphan did, it created a pod meanwhile; the extra one then goes.
    await waitFor('one pod, the adopted orphan', async () => {
      const list = await pods('adopter');
      return list.length === 1 && list[0]?.metadata.name === 'orphan';
    });
  });

  it('releases a relabelled pod and replaces it', async () => {
    const created = (await kube('POST', rcs, rc('keeper', 2))) as unknown as Rc;
    await running('keeper', 2);
    const [pod] = await pods('keeper');
    const current = await kube('GET', `/api/v1/namespaces/${ns}/pods/${pod?.metadata.name}`);
    await kube('PUT', `/api/v1/namespaces/${ns}/pods/${pod?.metadata.name}`, {
      ...current,
      metadata: { ...(current['metadata'] as object), labels: { app: 'escaped' } },
    });
    await waitFor('the relabelled pod released', async () => {
      const escaped = (await kube('GET', `/api/v1/namespaces/${ns}/pods/${pod?.metadata.name}`)) as unknown as Pod;
      return !(escaped.metadata.ownerReferences ?? []).some((r) => r.uid === created.metadata.uid);
    });
    await running('keeper', 2);
  });

  it('respects minReadySeconds: a Ready pod counts as available only minReadySeconds after it became Ready', async () => {
    await kube('POST', rcs, rc('steady', 2, { minReadySeconds: 6 }));
    await running('steady', 2);
    let readyNotAvailable = false;
    await waitFor(
      '2 available replicas',
      async () => {
        const s = ((await kube('GET', `${rcs}/steady`)) as unknown as Rc).status;
        if (s?.readyReplicas === 2 && (s.availableReplicas ?? 0) < 2) readyNotAvailable = true;
        return s?.availableReplicas === 2;
      },
      { intervalMs: 200 },
    );
    const readySince = Math.max(
      ...(await pods('steady')).map((p) =>
        Date.parse(p.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime ?? ''),
      ),
    );
    assert.ok(readyNotAvailable, 'the status reported Ready pods that were not available yet');
    assert.ok(
      Date.now() - readySince >= 6000,
      `available ${Date.now() - readySince} ms after Ready, not before minReadySeconds`,
    );
  });

  it('reports pods the apiserver rejects with FailedCreate and ReplicaFailure, backing off instead of looping', async (t) => {
    const limited = `${ns}-limited`;
    await kube('POST', '/api/v1/namespaces', { metadata: { name: limited } });
    await kube('POST', `/api/v1/namespaces/${limited}/limitranges`, {
      metadata: { name: 'small' },
      spec: { limits: [{ type: 'Container', max: { cpu: '100m' } }] },
    });
    const bad = rc('broken', 2);
    (bad['spec'] as { template: { spec: { containers: Record<string, unknown>[] } } }).template.spec.containers[0]![
      'resources'
    ] = { requests: { cpu: '1' }, limits: { cpu: '1' } };
    await kube('POST', `/api/v1/namespaces/${limited}/replicationcontrollers`, bad);
    // An RC left failing would go on counting in the writer's metric under every later run against this stack.
    t.after(() => kube('DELETE', `/api/v1/namespaces/${limited}`).catch(() => undefined));
    await waitFor('the ReplicaFailure condition', async () =>
      (
        (await kube('GET', `/api/v1/namespaces/${limited}/replicationcontrollers/broken`)) as unknown as Rc
      ).status?.conditions?.some((c) => c.type === 'ReplicaFailure' && c.reason === 'FailedCreate'),
    );
    const events = (await kube('GET', `/api/v1/namespaces/${limited}/events`))['items'] as {
      reason: string;
      count?: number;
    }[];
    assert.ok(events.some((e) => e.reason === 'FailedCreate'));
    assert.ok(
      !events.some((e) => e.reason === 'SuccessfulCreate'),
      'a refused create records FailedCreate only, as upstream',
    );
    const attempts = async (): Promise<number> =>
      metricValue(writer, 'kcm_bus_writer_mutations_total', { verb: 'Create', outcome: 'Failed' });
    const before = await waitFor('two failed creates', async () => ((await attempts()) >= 2 ? attempts() : undefined));
    // A measurement window, not a wait for a condition: after two failed attempts upstream's backoff (5 ms doubling,
    // one step per failed sync) waits 10, 20, … 2560 ms: 8 attempts in the next 5 s, 9 with the window's edges; a loop at pipeline
    // speed would make dozens.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const during = (await attempts()) - before;
    assert.ok(during <= 9, `failed creates back off (rate-limited requeue), not a hot loop: ${during} in 5 s`);
    assert.equal(reconciler.process.exitCode, null);
  });
});
