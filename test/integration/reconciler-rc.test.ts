import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Node } from '@kubernetes/client-node';
import { kwokNode } from '@kcm-bus/stack/kube-access.ts';
import { kubeClients, rawKube, testStack, uniqueName } from '../support/stack.ts';
import { metricValue, startService, stopAllServices, type ServiceProcess } from '../support/processes.ts';
import { waitFor } from '../support/wait.ts';

const stack = testStack();
const kube = rawKube();
const bus = ['--kafka-brokers', stack.kafkaBootstrap, '--schema-registry-url', stack.registry];

type Pod = { metadata: { name: string; labels?: Record<string, string>; deletionTimestamp?: string; ownerReferences?: { uid: string; controller?: boolean }[] }; status?: { phase?: string } };
type Rc = { metadata: { uid: string }; status?: { replicas?: number; readyReplicas?: number; availableReplicas?: number; conditions?: { type: string; reason: string }[] } };

describe('reconciler-rc end to end: watcher → Kafka → reconciler-rc → Kafka → writer → apiserver', () => {
  const ns = uniqueName('rc');
  const rcs = `/api/v1/namespaces/${ns}/replicationcontrollers`;
  let reconciler: ServiceProcess;
  let writer: ServiceProcess;

  const rc = (name: string, replicas: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    metadata: { name }, spec: { replicas, selector: { app: name }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }, ...extra },
  });
  const pods = async (app: string): Promise<Pod[]> => ((await kube('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=app%3D${app}`))['items'] as Pod[]).filter((p) => !p.metadata.deletionTimestamp);
  const owned = async (app: string, uid: string): Promise<Pod[]> => (await pods(app)).filter((p) => p.metadata.ownerReferences?.some((r) => r.uid === uid && r.controller));
  const scale = async (name: string, replicas: number): Promise<void> => {
    const current = await kube('GET', `${rcs}/${name}`);
    await kube('PUT', `${rcs}/${name}`, { ...current, spec: { ...current['spec'] as object, replicas } });
  };
  const running = (app: string, n: number) => waitFor(`${n} running pods of ${app}`, async () => {
    const list = await pods(app);
    return list.length === n && list.every((p) => p.status?.phase === 'Running') ? list : undefined;
  });

  before(async () => {
    await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    await kubeClients(stack.kubeconfig).core.createNode({ body: kwokNode(uniqueName('kwok-rc')) as V1Node });
    await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']);
    writer = await startService('writer', [...bus, '--kubeconfig', stack.kubeconfigs.writer, '--partitions', '3', '--kube-api-qps', '100', '--kube-api-burst', '100']);
    reconciler = await startService('reconciler-rc', [...bus, '--redis-url', stack.redis]);
  });
  after(stopAllServices);

  it('gives an RC of 3 three Running pods it owns, and reports them in its status', async () => {
    const created = await kube('POST', rcs, rc('web', 3)) as unknown as Rc;
    await running('web', 3);
    assert.equal((await owned('web', created.metadata.uid)).length, 3);
    await waitFor('status replicas 3, ready 3', async () => {
      const s = ((await kube('GET', `${rcs}/web`)) as unknown as Rc).status;
      return s?.replicas === 3 && s.readyReplicas === 3 && s.availableReplicas === 3;
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
    await kube('POST', `/api/v1/namespaces/${ns}/pods`, { metadata: { name: 'orphan', labels: { app: 'adopter' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    const created = await kube('POST', rcs, rc('adopter', 1)) as unknown as Rc;
    await waitFor('the orphan adopted', async () => (await owned('adopter', created.metadata.uid)).some((p) => p.metadata.name === 'orphan'));
    // If the RC reached reconciler-rc before the orphan did, it created a pod meanwhile; the extra one then goes.
    await waitFor('one pod, the adopted orphan', async () => {
      const list = await pods('adopter');
      return list.length === 1 && list[0]?.metadata.name === 'orphan';
    });
  });

  it('releases a relabelled pod and replaces it', async () => {
    const created = await kube('POST', rcs, rc('keeper', 2)) as unknown as Rc;
    await running('keeper', 2);
    const [pod] = await pods('keeper');
    const current = await kube('GET', `/api/v1/namespaces/${ns}/pods/${pod?.metadata.name}`);
    await kube('PUT', `/api/v1/namespaces/${ns}/pods/${pod?.metadata.name}`, { ...current, metadata: { ...current['metadata'] as object, labels: { app: 'escaped' } } });
    await waitFor('the relabelled pod released', async () => {
      const escaped = await kube('GET', `/api/v1/namespaces/${ns}/pods/${pod?.metadata.name}`) as unknown as Pod;
      return !(escaped.metadata.ownerReferences ?? []).some((r) => r.uid === created.metadata.uid);
    });
    await running('keeper', 2);
  });

  it('reports pods the apiserver rejects with FailedCreate and ReplicaFailure, backing off instead of looping', async () => {
    const limited = `${ns}-limited`;
    await kube('POST', '/api/v1/namespaces', { metadata: { name: limited } });
    await kube('POST', `/api/v1/namespaces/${limited}/limitranges`, { metadata: { name: 'small' }, spec: { limits: [{ type: 'Container', max: { cpu: '100m' } }] } });
    const bad = rc('broken', 2);
    (bad['spec'] as { template: { spec: { containers: Record<string, unknown>[] } } }).template.spec.containers[0]!['resources'] = { requests: { cpu: '1' }, limits: { cpu: '1' } };
    await kube('POST', `/api/v1/namespaces/${limited}/replicationcontrollers`, bad);
    await waitFor('the ReplicaFailure condition', async () =>
      ((await kube('GET', `/api/v1/namespaces/${limited}/replicationcontrollers/broken`)) as unknown as Rc).status?.conditions?.some((c) => c.type === 'ReplicaFailure' && c.reason === 'FailedCreate'));
    const events = (await kube('GET', `/api/v1/namespaces/${limited}/events`))['items'] as { reason: string; count?: number }[];
    assert.ok(events.some((e) => e.reason === 'FailedCreate'));
    const attempts = async (): Promise<number> => metricValue(writer, 'kcm_bus_writer_mutations_total', { verb: 'Create', outcome: 'Failed' });
    const before = await waitFor('two failed creates', async () => ((await attempts()) >= 2 ? attempts() : undefined));
    // A measurement window, not a wait for a condition: with the rate-limited requeue the next 5 s hold a few
    // attempts; a loop at pipeline speed would make dozens.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const during = (await attempts()) - before;
    assert.ok(during <= 6, `failed creates back off (rate-limited requeue), not a hot loop: ${during} in 5 s`);
    assert.equal(reconciler.process.exitCode, null);
  });

  it('never over-creates: kill -9 of reconciler-rc during 0 -> 300 leaves at most 300 owned pods alive, and exactly 300 at the end', async () => {
    const created = await kube('POST', rcs, rc('burst', 300)) as unknown as Rc;
    let most = 0;
    const count = async (): Promise<number> => {
      const n = (await owned('burst', created.metadata.uid)).length;
      most = Math.max(most, n);
      return n;
    };
    await waitFor('100 pods', async () => (await count()) >= 100, { intervalMs: 50 });
    reconciler.process.kill('SIGKILL');
    await reconciler.exited;
    reconciler = await startService('reconciler-rc', [...bus, '--redis-url', stack.redis, '--expectations-ttl-seconds', '20']);
    await waitFor('exactly 300 owned pods', async () => (await count()) === 300, { timeoutMs: 240_000, intervalMs: 200 });
    for (let i = 0; i < 10; i++) await count();
    assert.ok(most <= 300, `at most 300 owned pods alive (saw ${most})`);
    assert.equal(await count(), 300);
  });
});
