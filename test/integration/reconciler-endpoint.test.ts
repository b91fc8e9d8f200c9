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
import { type EndpointsObject, readyIPs as ips } from '@kcm-bus/harness/endpoints.ts';
import { startService, stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import type { Pod } from '@kcm-bus/harness/rc.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { inParallel } from '@kcm-bus/harness/parallel.ts';

const stack = testStack();
const kube = rawKube();

describe('reconciler-endpoint end to end: watcher → Kafka → reconciler-endpoint → Kafka → writer → apiserver', () => {
  const ns = uniqueName('ep');
  const node = uniqueName('kwok-ep');
  let reconciler: ServiceProcess;
  const path = (kind: string, name = ''): string => `/api/v1/namespaces/${ns}/${kind}${name === '' ? '' : `/${name}`}`;
  const pod = (
    name: string,
    labels: Record<string, string>,
    spec: Record<string, unknown> = {},
    meta: Record<string, unknown> = {},
  ) =>
    kube('POST', path('pods'), {
      metadata: { name, labels, ...meta },
      spec: {
        nodeName: node,
        containers: [{ name: 'c', image: 'nginx', ports: [{ name: 'web', containerPort: 8080 }] }],
        ...spec,
      },
    });
  const service = (name: string, spec: Record<string, unknown>) =>
    kube('POST', path('services'), { metadata: { name }, spec: { ports: [{ port: 80, targetPort: 'web' }], ...spec } });
  const endpoints = async (name: string): Promise<EndpointsObject | undefined> =>
    ((await kube('GET', path('endpoints'))) as { items: EndpointsObject[] }).items.find(
      (e) => e.metadata.name === name,
    );
  const podIP = async (name: string): Promise<string> =>
    waitFor(
      `${name} has an IP`,
      async () => ((await kube('GET', path('pods', name))) as { status?: { podIP?: string } }).status?.podIP,
    );

  before(async () => {
    await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    await schedulableKwokNode(node);
    await startService('watcher', [
      ...serviceBusFlags(stack, 'watcher'),
      '--kubeconfig',
      stack.kubeconfigs.watcher,
      '--partitions',
      '3',
    ]);
    await startService('writer', testWriterFlags(serviceBusFlags(stack, 'writer')));
    reconciler = await startService('reconciler-endpoint', serviceBusFlags(stack, 'reconciler-endpoint'));
  });
  after(stopAllServices);

  it("fills a Service's Endpoints as its pods become Ready, with the labels upstream sets, and drops a deleted pod", async () => {
    await service('web', { selector: { app: 'web' } });
    await pod('web-1', { app: 'web' });
    await pod('web-2', { app: 'web' });
    const [ip1, ip2] = [await podIP('web-1'), await podIP('web-2')];
    const e = await waitFor('both pods ready in the Endpoints', async () => {
      const x = await endpoints('web');
      return JSON.stringify(ips(x)) === JSON.stringify([ip1, ip2].sort()) && x;
    });
    assert.equal(e.metadata.labels?.['endpoints.kubernetes.io/managed-by'], 'endpoint-controller');
    assert.deepEqual(e.subsets?.[0]?.ports, [{ port: 8080, protocol: 'TCP' }]);
    await kube('DELETE', `${path('pods', 'web-1')}?gracePeriodSeconds=0`);
    await waitFor(
      'web-1 gone from the Endpoints',
      async () => JSON.stringify(ips(await endpoints('web'))) === JSON.stringify([ip2]),
    );
  });

  it('gives two subsets when a named targetPort maps to different container ports', async () => {
    await service('split', { selector: { app: 'split' }, clusterIP: 'None' });
    await pod('split-a', { app: 'split' });
    await pod(
      'split-b',
      { app: 'split' },
      { containers: [{ name: 'c', image: 'nginx', ports: [{ name: 'web', containerPort: 9090 }] }] },
    );
    await waitFor('two subsets, 8080 and 9090', async () => {
      const subsets = (await endpoints('split'))?.subsets ?? [];
      return (
        JSON.stringify(subsets.map((s) => s.ports?.[0]?.port).sort()) === '[8080,9090]' &&
        subsets.every((s) => s.addresses?.length === 1)
      );
    });
    assert.equal((await endpoints('split'))?.metadata.labels?.['service.kubernetes.io/headless'], '');
  });

  it('keeps a terminating pod as ready with publishNotReadyAddresses and drops it without; sets the hostname of a pod whose subdomain matches', async () => {
    await service('publish', { selector: { app: 'fin' }, publishNotReadyAddresses: true });
    await service('strict', { selector: { app: 'fin' } });
    await pod('fin', { app: 'fin' }, { hostname: 'db-0', subdomain: 'strict' }, { finalizers: ['kcm-bus.test/hold'] });
    const ip = await podIP('fin');
    await waitFor(
      'the pod in both',
      async () => ips(await endpoints('publish')).includes(ip) && ips(await endpoints('strict')).includes(ip),
    );
    assert.deepEqual(
      (await endpoints('strict'))?.subsets?.[0]?.addresses?.map((a) => a.hostname),
      ['db-0'],
    );
    assert.deepEqual(
      (await endpoints('publish'))?.subsets?.[0]?.addresses?.map((a) => a.hostname),
      [undefined],
    );
    await kube('DELETE', path('pods', 'fin'));
    await waitFor(
      'gone from strict, kept in publish',
      async () => ips(await endpoints('strict')).length === 0 && ips(await endpoints('publish')).includes(ip),
    );
    const current = await kube('GET', path('pods', 'fin'));
    await kube('PUT', path('pods', 'fin'), {
      ...current,
      metadata: { ...(current['metadata'] as object), finalizers: [] },
    });
  });

  it('leaves the Endpoints of a Service without selector alone, and deletes those of a deleted Service', async () => {
    await service('manual', {});
    await kube('POST', path('endpoints'), {
      metadata: { name: 'manual' },
      subsets: [{ addresses: [{ ip: '10.9.9.9' }], ports: [{ port: 80 }] }],
    });
    await service('doomed', { selector: { app: 'web' } });
    await waitFor('doomed has Endpoints', () => endpoints('doomed'));
    await kube('DELETE', path('services', 'doomed'));
    await waitFor("doomed's Endpoints deleted", async () => (await endpoints('doomed')) === undefined);
    const manual = await endpoints('manual');
    assert.deepEqual([ips(manual), manual?.metadata.labels], [['10.9.9.9'], undefined]);
  });

  it('cleans up, once started, the Endpoints of a Service deleted while it was down', async () => {
    await service('left', { selector: { app: 'web' } });
    await waitFor('left has Endpoints', () => endpoints('left'));
    await reconciler.stop();
    await kube('DELETE', path('services', 'left'));
    reconciler = await startService('reconciler-endpoint', serviceBusFlags(stack, 'reconciler-endpoint'));
    await waitFor("left's Endpoints deleted after the restart", async () => (await endpoints('left')) === undefined);
  });

  it('holds 1000 of 1001 ready pods and sets the over-capacity annotation, and clears it at 1000 pods', async () => {
    await service('big', { selector: { app: 'big' } });
    await inParallel(
      Array.from({ length: 1001 }, (_, i) => `big-${i}`),
      (name) => pod(name, { app: 'big' }),
      32,
    );
    await waitFor(
      '1001 ready pods',
      async () =>
        ((await kube('GET', `${path('pods')}?labelSelector=app%3Dbig`)) as { items: Pod[] }).items.filter((p) =>
          p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
        ).length === 1001,
      { timeoutMs: 180_000, intervalMs: 2000 },
    );
    const full = await waitFor(
      '1000 ready addresses and the annotation',
      async () => {
        const e = await endpoints('big');
        return (
          ips(e).length === 1000 &&
          e?.metadata.annotations?.['endpoints.kubernetes.io/over-capacity'] === 'truncated' &&
          e
        );
      },
      { timeoutMs: 180_000, intervalMs: 1000 },
    );
    assert.deepEqual(ips(full, 'notReadyAddresses'), []);
    await kube('DELETE', `${path('pods', 'big-0')}?gracePeriodSeconds=0`);
    await waitFor(
      'the annotation cleared at 1000 pods',
      async () => {
        const e = await endpoints('big');
        return (
          ips(e).length === 1000 && e?.metadata.annotations?.['endpoints.kubernetes.io/over-capacity'] === undefined
        );
      },
      { timeoutMs: 60_000, intervalMs: 1000 },
    );
    await kube('DELETE', `${path('pods')}?labelSelector=app%3Dbig&gracePeriodSeconds=0`);
  });
});
